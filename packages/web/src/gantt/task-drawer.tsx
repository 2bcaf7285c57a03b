import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, describeError } from '../client';
import { Alert, Field } from '../components';
import { formatDate, formatDateTime, formatDays, minutesPerDay } from '../format';
import type { Calendar, Dependency, Member, PlanTask, Resource, TaskPatch } from '../types';
import { TaskComments } from './task-comments';
import { constraintLabels, draftOf, mixed, patchOf, taskFields, withCalendars, type TaskField } from './task-fields';
import { workingDaysBetween } from './time-scale';

export const linkLabels: Record<Dependency['type'], string> = { FS: 'finish → start', SS: 'start → start', FF: 'finish → finish', SF: 'start → finish' };

/** A finish variance in working days, in words: the word says which way, so no sign doubles it ("2 d early", not "−2 d early"). */
export function varianceLabel(days: number): string {
  return days === 0 ? 'on time' : `${Math.abs(days)} d ${days > 0 ? 'late' : 'early'}`;
}

export interface TaskDrawerProps {
  projectId: string;
  task: PlanTask;
  /** The task in the baseline shown on the chart, if any: the drawer states the variance. */
  planned: { startAt: string | null; finishAt: string | null } | null;
  tasksById: ReadonlyMap<string, PlanTask>;
  dependencies: readonly Dependency[];
  members: readonly Member[];
  /** The project's calendars, which a task may work on instead of the project's. */
  calendars: readonly Calendar[];
  /** The project's resources without an account (machines, teams), assignable beside the members. */
  resources: readonly Resource[];
  /** The resources assigned to the task (a member's `resourceId`, or a resource's `id`). */
  assignedResourceIds: readonly string[];
  editable: boolean;
  onSave(patch: TaskPatch): Promise<void>;
  /** Replaces who is assigned: these members, and these resources without an account. */
  onAssign(assignees: { userIds: string[]; resourceIds: string[] }): Promise<void>;
  onUnlink(dependency: Dependency): Promise<void>;
  /** A link's type or lag changed (the API updates the link between the same two tasks). */
  onRelink(dependency: Dependency, change: Pick<Dependency, 'type' | 'lagMin'>): Promise<void>;
  onDelete(): void;
  onClose(): void;
}

/** Every field of one task, why it is where it is, its links and its comments. */
export function TaskDrawer(props: TaskDrawerProps) {
  const { task } = props;
  const [draft, setDraft] = useState(() => draftOf(task));
  const [error, setError] = useState<ApiError | string | null>(null);
  useEffect(() => setDraft(draftOf(task)), [task]);

  const isAssigned = (resourceId: string) => props.assignedResourceIds.includes(resourceId);
  const assignedUserIds = props.members.filter((member) => member.resourceId !== null && isAssigned(member.resourceId)).map((member) => member.userId);
  const assignedOtherIds = props.resources.filter((resource) => isAssigned(resource.id)).map((resource) => resource.id);
  const toggled = (ids: readonly string[], id: string, present: boolean) => (present ? ids.filter((other) => other !== id) : [...ids, id]);
  const assign = (assignees: { userIds: string[]; resourceIds: string[] }) => void props.onAssign(assignees).catch((caught: unknown) => setError(describeError(caught)));
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

  const predecessors = props.dependencies.filter((dependency) => dependency.successorId === task.id);
  const successors = props.dependencies.filter((dependency) => dependency.predecessorId === task.id);
  const linkRow = (dependency: Dependency, otherId: string) => {
    const other = props.tasksById.get(otherId);
    const fail = (caught: unknown) => setError(describeError(caught));
    return (
      <li key={dependency.id} className="link-row">
        <span>
          {other?.key} {other?.name}
        </span>
        {props.editable ? (
          <>
            <select aria-label={`Link type with ${other?.key}`} value={dependency.type} onChange={(event) => void props.onRelink(dependency, { type: event.target.value as Dependency['type'], lagMin: dependency.lagMin }).catch(fail)}>
              {Object.entries(linkLabels).map(([type, label]) => (
                <option key={type} value={type}>
                  {label}
                </option>
              ))}
            </select>
            <input
              aria-label={`Lag with ${other?.key} in working days (negative: lead)`}
              className="lag"
              type="number"
              step="any"
              defaultValue={dependency.lagMin / minutesPerDay}
              key={`${dependency.id}:${dependency.lagMin}`}
              onBlur={(event) => {
                const lagMin = Math.round(Number(event.currentTarget.value) * minutesPerDay);
                if (lagMin !== dependency.lagMin) void props.onRelink(dependency, { type: dependency.type, lagMin }).catch(fail);
              }}
              onKeyDown={(event) => event.key === 'Enter' && event.currentTarget.blur()}
            />
            <button type="button" className="link" onClick={() => void props.onUnlink(dependency).catch(fail)}>
              Remove link
            </button>
          </>
        ) : (
          <span>
            {' '}
            · {linkLabels[dependency.type]}
            {dependency.lagMin !== 0 && ` · ${dependency.lagMin > 0 ? 'lag' : 'lead'} ${formatDays(Math.abs(dependency.lagMin))}`}
          </span>
        )}
      </li>
    );
  };

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
          {taskFields.map((spec) => (
            <TaskFieldInput
              key={spec.field}
              spec={withCalendars(spec, props.calendars)}
              value={draft[spec.field]!}
              hidden={spec.field === 'constraintDate' && (draft.constraintKind === 'asap' || draft.constraintKind === 'alap')}
              disabled={(spec.rolledUp ?? false) && hasSubtasks}
              error={fieldError(spec.field)}
              onChange={(value) => setDraft({ ...draft, [spec.field]: value })}
            />
          ))}
          <div className="actions">
            <button type="submit">Save</button>
            <button type="button" className="danger secondary" onClick={props.onDelete}>
              Delete…
            </button>
          </div>
        </fieldset>
      </form>
      <section aria-label="Assignees">
        <h3>Assignees</h3>
        <fieldset disabled={!props.editable} className="assignees">
          {props.members.map((member) => {
            const assigned = member.resourceId !== null && isAssigned(member.resourceId);
            return (
              <label key={member.userId} className="check">
                <input type="checkbox" checked={assigned} onChange={() => assign({ userIds: toggled(assignedUserIds, member.userId, assigned), resourceIds: assignedOtherIds })} />{' '}
                {member.name}
              </label>
            );
          })}
          {props.resources.map((resource) => {
            const assigned = isAssigned(resource.id);
            return (
              <label key={resource.id} className="check">
                <input type="checkbox" checked={assigned} onChange={() => assign({ userIds: assignedUserIds, resourceIds: toggled(assignedOtherIds, resource.id, assigned) })} />{' '}
                {resource.name}
              </label>
            );
          })}
        </fieldset>
      </section>
      <section aria-label="Links">
        <h3>Predecessors</h3>
        {predecessors.length === 0 ? <p className="muted">None. Drag from another bar's dot to this bar to link.</p> : <ul>{predecessors.map((dependency) => linkRow(dependency, dependency.predecessorId))}</ul>}
        <h3>Successors</h3>
        {successors.length === 0 ? <p className="muted">None.</p> : <ul>{successors.map((dependency) => linkRow(dependency, dependency.successorId))}</ul>}
      </section>
      <TaskComments key={task.id} projectId={props.projectId} taskId={task.id} members={props.members} />
    </aside>
  );
}

/** One field of a task form, labelled, with the API's message for it; a value that differs among the tasks edited together shows as such. */
export function TaskFieldInput({ spec, value, hidden, disabled, error, onChange }: { spec: TaskField; value: string | boolean; hidden: boolean; disabled: boolean; error: string | undefined; onChange(value: string | boolean): void }) {
  const id = `task-${spec.field}`;
  if (hidden) return null;
  if (spec.input === 'checkbox') {
    return (
      <label className="check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          ref={(input) => {
            if (input) input.indeterminate = value === mixed;
          }}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {spec.label}
      </label>
    );
  }
  if (spec.input === 'text' || spec.input === 'number' || spec.input === 'date') {
    return <Field id={id} label={spec.label} type={spec.input} step={spec.input === 'number' ? 'any' : undefined} value={value === mixed ? '' : String(value)} disabled={disabled} error={error} placeholder={value === mixed ? 'Differs: left as it is' : undefined} onChange={(event) => onChange(event.target.value)} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{spec.label}</label>
      {spec.input === 'select' ? (
        <select id={id} value={String(value)} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
          {value === mixed && (
            <option value={mixed} disabled>
              Differs: left as it is
            </option>
          )}
          {Object.entries(spec.options ?? {}).map(([option, label]) => (
            <option key={option} value={option}>
              {label}
            </option>
          ))}
        </select>
      ) : (
        <textarea id={id} rows={3} value={String(value)} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
