import { useState, type FormEvent } from 'react';
import { ApiError, describeError } from '../client';
import { Alert } from '../components';
import type { Calendar, PlanTask, TaskPatch } from '../types';
import { TaskFieldInput } from './task-drawer';
import { bulkFields, commonDraft, mixed, patchBetween, withCalendars } from './task-fields';

export interface BulkEditProps {
  tasks: readonly PlanTask[];
  /** Whether one of them has subtasks: what subtasks roll up is then not edited here. */
  hasSummary: boolean;
  calendars: readonly Calendar[];
  editable: boolean;
  onSave(patch: TaskPatch): Promise<void>;
  onClose(): void;
}

/**
 * Microsoft Project's "Multiple Task Information": the fields the selected tasks share,
 * and one edit (one step of undo) that sets the fields changed on all of them. A field
 * whose values differ stays as each task has it unless it is set here.
 */
export function BulkEditDrawer(props: BulkEditProps) {
  const [initial] = useState(() => commonDraft(props.tasks));
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const patch = patchBetween(initial, draft);
  const changed = Object.keys(patch).length;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await props.onSave(patch);
      props.onClose();
    } catch (caught) {
      // A change set names the task and field (`updateTasks[2].durationMin`): the task's key says more than its index.
      const fields = caught instanceof ApiError ? caught.fields : [];
      setError(
        fields.length > 0
          ? fields.map(({ path, message }) => `${props.tasks[Number(/\[(\d+)\]/.exec(path)?.[1])]?.key ?? ''} ${path.split('.').pop()}: ${message}`.trim()).join('; ')
          : describeError(caught),
      );
    }
  };

  return (
    <aside className="drawer" aria-label={`Edit ${props.tasks.length} tasks`}>
      <header>
        <h2>Edit {props.tasks.length} tasks</h2>
        <button type="button" className="link" onClick={props.onClose} aria-label="Close">
          ✕
        </button>
      </header>
      <p className="muted">{props.tasks.map((task) => task.key).join(', ')}. What differs among them is left as each has it unless you set it.</p>
      {error && <Alert>{error}</Alert>}
      <form onSubmit={save}>
        <fieldset disabled={!props.editable}>
          {bulkFields.map((spec) => (
            <TaskFieldInput
              key={spec.field}
              spec={withCalendars(spec, props.calendars)}
              value={draft[spec.field]!}
              hidden={spec.field === 'constraintDate' && [mixed, 'asap', 'alap'].includes(String(draft.constraintKind))}
              disabled={(spec.rolledUp ?? false) && props.hasSummary}
              error={undefined}
              onChange={(value) => setDraft({ ...draft, [spec.field]: value })}
            />
          ))}
          <div className="actions">
            <button type="submit" disabled={changed === 0}>
              {changed === 0 ? 'Save' : `Save ${changed === 1 ? '1 field' : `${changed} fields`} on ${props.tasks.length} tasks`}
            </button>
          </div>
        </fieldset>
      </form>
    </aside>
  );
}
