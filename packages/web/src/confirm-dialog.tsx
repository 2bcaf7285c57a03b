import { useEffect, useRef, useState } from 'react';
import { describeError } from './client';
import { Alert, Field } from './components';

/**
 * Deletion (and a restore, which deletes what came since) asks the person first. What cannot
 * be undone (a project, a calendar, a restore) asks them to type its key (`expected`), as the
 * API requires it in `confirm`; tasks, which undo brings back, are deleted with Enter.
 */
export function ConfirmDeletion({
  title,
  explanation,
  expected,
  action = 'Delete',
  onConfirm,
  onClose,
}: {
  title: string;
  explanation: string;
  expected?: string;
  action?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <dialog ref={dialog} className="confirm" onClose={onClose} aria-labelledby="confirm-title">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <h2 id="confirm-title">{title}</h2>
        <p>{explanation}</p>
        {error && <Alert>{error}</Alert>}
        {expected !== undefined && <Field label={`Type ${expected} to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} autoFocus />}
        <div className="actions">
          <button type="submit" className="danger" autoFocus={expected === undefined} disabled={busy || (expected !== undefined && typed.trim().toUpperCase() !== expected.toUpperCase())}>
            {action}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
