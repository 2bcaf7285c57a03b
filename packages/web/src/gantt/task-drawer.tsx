import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, describeError } from '../api';
import { Alert, Field } from '../components';
import { formatDate, formatDateTime, formatDays, minutesPerDay } from '../format';
import type { Comment, ConstraintKind, Dependency, Member, PlanTask, TaskPatch } from '../types';
import { workingDaysBetween } from './time-scale';

const constraintLabels: Record<ConstraintKind, string> = {
  asap: 'As soon as possible',
  alap: 'As late as possible',
  start_no_earlier_than: 'Start no earlier than',
  start_no_later_than: 'Start no later than',
  finish_no_earlier_than: 'Finish no earlier than',
  finish_no_later_than: 'Finish no later than',
  must_start_on: 'Must start on',
  must_finish_on: 'Must finish on',
};

const linkLabels: Record<Dependency['type'], string> = { FS: 'finish → start', SS: 'start → start', FF: 'finish → finish', SF: 'start → finish' };

/** A finish variance in working days, signed: late is positive, as Microsoft Project shows it. */
function varianceLabel(days: number): string {
  return days === 0 ? 'on time' : `${days > 0 ? '+' : '−'}${Math.abs(days)} d ${days > 0 ? 'late' : 'early'}`;
}

interface Draft {
  name: string;
  type: PlanTask['type'];
  durationDays: string;
  progressPct: string;
  constraintKind: ConstraintKind;
  constraintDate: string;
  deadline: string;
  notes: string;
}

function draftOf(task: PlanTask): Draft {
  return {
    name: task.name,
    type: task.type,
    durationDays: String(task.durationMin / minutesPerDay),
    progressPct: String(task.progressPct),
    constraintKind: task.constraintKind,
    constraintDate: task.constraintDate?.slice(0, 10) ?? '',
    deadline: task.deadline?.slice(0, 10) ?? '',
    notes: task.notes ?? '',
  };
}

/** Only the fields the person changed, as the API takes them. */
function patchOf(task: PlanTask, draft: Draft): TaskPatch {
  const patch: TaskPatch = {};
  const before = draftOf(task);
  if (draft.name !== before.name) patch.name = draft.name;
  if (draft.type !== before.type) patch.type = draft.type;
  if (draft.durationDays !== before.durationDays) patch.durationMin = Math.round(Number(draft.durationDays) * minutesPerDay);
  if (draft.progressPct !== before.progressPct) patch.progressPct = Number(draft.progressPct);
  if (draft.constraintKind !== before.constraintKind || draft.constraintDate !== before.constraintDate) {
    patch.constraintKind = draft.constraintKind;
    patch.constraintDate = draft.constraintDate ? `${draft.constraintDate}T08:00:00Z` : null;
  }
  if (draft.deadline !== before.deadline) patch.deadline = draft.deadline ? `${draft.deadline}T17:00:00Z` : null;
  if (draft.notes !== before.notes) patch.notes = draft.notes === '' ? null : draft.notes;
  return patch;
}

export interface TaskDrawerProps {
  projectId: string;
  task: PlanTask;
  /** The task in the baseline shown on the chart, if any: the drawer states the variance. */
  planned: { startAt: string | null; finishAt: string | null } | null;
  tasksById: ReadonlyMap<string, PlanTask>;
  dependencies: readonly Dependency[];
  members: readonly Member[];
  editable: boolean;
  onSave(patch: TaskPatch): Promise<void>;
  onUnlink(dependency: Dependency): Promise<void>;
  onDelete(): void;
  onClose(): void;
}

/** Every field of one task, why it is where it is, its links and its comments. */
export function TaskDrawer(props: TaskDrawerProps) {
  const { task } = props;
  const [draft, setDraft] = useState(() => draftOf(task));
  const [error, setError] = useState<ApiError | string | null>(null);
  const [comments, setComments] = useState<Comment[]>([]);
  const [comment, setComment] = useState('');
  useEffect(() => setDraft(draftOf(task)), [task]);
  useEffect(() => {
    api<{ comments: Comment[] }>('GET', `/api/projects/${props.projectId}/tasks/${task.id}/comments`).then(
      (answer) => setComments(answer.comments),
      (caught: unknown) => setError(describeError(caught)),
    );
  }, [props.projectId, task.id]);

  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });
  const fieldError = (path: string) => (error instanceof ApiError ? error.field(path) : undefined);
  const hasSubtasks = [...props.tasksById.values()].some((other) => other.parentId === task.id);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await props.onSave(patchOf(task, draft));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : describeError(caught));
    }
  };

  const addComment = async (event: FormEvent) => {
    event.preventDefault();
    // "@Name" mentions a member by the name the project lists.
    const mentions = props.members.filter((member) => comment.includes(`@${member.name}`)).map((member) => member.userId);
    try {
      const { comment: added } = await api<{ comment: Comment }>('POST', `/api/projects/${props.projectId}/tasks/${task.id}/comments`, { body: comment, mentions });
      setComments([...comments, added]);
      setComment('');
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const predecessors = props.dependencies.filter((dependency) => dependency.successorId === task.id);
  const successors = props.dependencies.filter((dependency) => dependency.predecessorId === task.id);
  const linkRow = (dependency: Dependency, otherId: string) => (
    <li key={dependency.id}>
      {props.tasksById.get(otherId)?.key} {props.tasksById.get(otherId)?.name} · {linkLabels[dependency.type]}
      {dependency.lagMin !== 0 && ` · ${dependency.lagMin > 0 ? 'lag' : 'lead'} ${formatDays(Math.abs(dependency.lagMin))}`}
      {props.editable && (
        <button type="button" className="link" onClick={() => void props.onUnlink(dependency).catch((caught: unknown) => setError(describeError(caught)))}>
          Remove link
        </button>
      )}
    </li>
  );

  return (
    <aside className="drawer" aria-label={`Task ${task.key}`}>
      <header>
        <h2>
          {task.key} · {task.name}
        </h2>
        <button type="button" className="link" onClick={props.onClose} aria-label="Close the task">
          ✕
        </button>
      </header>
      {typeof error === 'string' && <Alert>{error}</Alert>}
      {error instanceof ApiError && error.fields.length === 0 && <Alert>{error.message}</Alert>}
      <section aria-label="Why the task is here" className="explain">
        <p>
          {formatDateTime(task.startAt)} → {formatDateTime(task.finishAt)}
          {task.isCritical ? <strong className="critical-text"> · critical</strong> : task.totalFloatMin !== null && ` · float ${formatDays(task.totalFloatMin)}`}
        </p>
        {props.planned?.finishAt && task.finishAt && (
          <p>
            Baseline {formatDate(props.planned.startAt)} → {formatDate(props.planned.finishAt)} · finish variance{' '}
            <strong>{varianceLabel(workingDaysBetween(Date.parse(props.planned.finishAt), Date.parse(task.finishAt)))}</strong>
          </p>
        )}
        <p className="muted">
          {task.manuallyScheduled
            ? 'Scheduled by hand: it keeps its dates.'
            : task.constraintKind !== 'asap'
              ? `${constraintLabels[task.constraintKind]} ${formatDate(task.constraintDate)}${predecessors.length > 0 ? ', and after its predecessors' : ''}.`
              : predecessors.length > 0
                ? 'As soon as its predecessors allow.'
                : hasSubtasks
                  ? 'Spans its subtasks.'
                  : 'At the project start: nothing holds it back.'}
        </p>
      </section>
      <form onSubmit={save}>
        <fieldset disabled={!props.editable}>
          <Field label="Name" value={draft.name} onChange={set('name')} error={fieldError('name')} required />
          <div className="field">
            <label htmlFor="task-type">Type</label>
            <select id="task-type" value={draft.type} onChange={set('type')} disabled={hasSubtasks}>
              <option value="task">Task</option>
              <option value="milestone">Milestone</option>
              <option value="summary">Summary (phase)</option>
            </select>
          </div>
          <Field label="Duration (working days)" type="number" min={0} step={0.125} value={draft.durationDays} onChange={set('durationDays')} error={fieldError('durationMin')} disabled={hasSubtasks} />
          <Field label="Progress (%)" type="number" min={0} max={100} value={draft.progressPct} onChange={set('progressPct')} error={fieldError('progressPct')} disabled={hasSubtasks} />
          <div className="field">
            <label htmlFor="task-constraint">Constraint</label>
            <select id="task-constraint" value={draft.constraintKind} onChange={set('constraintKind')}>
              {Object.entries(constraintLabels).map(([kind, label]) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {draft.constraintKind !== 'asap' && draft.constraintKind !== 'alap' && (
            <Field label="Constraint date" type="date" value={draft.constraintDate} onChange={set('constraintDate')} error={fieldError('constraintDate')} />
          )}
          <Field label="Deadline" type="date" value={draft.deadline} onChange={set('deadline')} error={fieldError('deadline')} />
          <div className="field">
            <label htmlFor="task-notes">Notes</label>
            <textarea id="task-notes" rows={3} value={draft.notes} onChange={set('notes')} />
          </div>
          <div className="actions">
            <button type="submit">Save</button>
            <button type="button" className="danger secondary" onClick={props.onDelete}>
              Delete…
            </button>
          </div>
        </fieldset>
      </form>
      <section aria-label="Links">
        <h3>Predecessors</h3>
        {predecessors.length === 0 ? <p className="muted">None. Drag from another bar's dot to this bar to link.</p> : <ul>{predecessors.map((dependency) => linkRow(dependency, dependency.predecessorId))}</ul>}
        <h3>Successors</h3>
        {successors.length === 0 ? <p className="muted">None.</p> : <ul>{successors.map((dependency) => linkRow(dependency, dependency.successorId))}</ul>}
      </section>
      <section aria-label="Comments">
        <h3>Comments</h3>
        <ul className="comments">
          {comments.map((item) => (
            <li key={item.id}>
              <strong>{item.authorName}</strong> <span className="muted">{formatDateTime(item.createdAt)}</span>
              <p>{item.body}</p>
            </li>
          ))}
        </ul>
        <form onSubmit={addComment}>
          <div className="field">
            <label htmlFor="task-comment">Add a comment (mention with @Name)</label>
            <textarea id="task-comment" rows={2} value={comment} onChange={(event) => setComment(event.target.value)} required />
          </div>
          <button type="submit">Comment</button>
        </form>
      </section>
    </aside>
  );
}
