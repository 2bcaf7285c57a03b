import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { ApiError, describeError } from './client';

/** A labelled input with the API's message for it, announced to screen readers. */
export function Field({ label, error, ...input }: { label: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  const id = input.id ?? generated;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function Alert({ children, kind = 'error' }: { children: ReactNode; kind?: 'error' | 'info' }) {
  return (
    <p className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** The centred card of the pages before sign-in. */
export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="card">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** The head row of a list table: its columns, then an unnamed column of row actions (named for screen readers). */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** A panel beside the chart (members, calendars, versions): its title and a button that closes it. */
export function SidePanel({ title, closeLabel, onClose, children }: { title: string; closeLabel: string; onClose(): void; children: ReactNode }) {
  return (
    <aside className="drawer" aria-label={title}>
      <header>
        <h2>{title}</h2>
        <button type="button" className="link" onClick={onClose} aria-label={closeLabel}>
          ✕
        </button>
      </header>
      {children}
    </aside>
  );
}

/**
 * A side panel's actions: `run` clears the last message, runs the action, shows the notice
 * it answers and calls `after` (e.g. reloading the plan), or keeps its error (an ApiError,
 * whose field messages forms show, or a text). Resolves whether it succeeded.
 */
export function usePanelAction(after?: () => Promise<void>) {
  const [error, setError] = useState<ApiError | string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const run = async (action: () => Promise<string>): Promise<boolean> => {
    setError(null);
    setNotice(null);
    try {
      setNotice(await action());
      await after?.();
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : describeError(caught));
      return false;
    }
  };
  return { error, setError, notice, run };
}
