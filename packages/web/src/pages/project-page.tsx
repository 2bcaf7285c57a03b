import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, describeError } from '../api';
import { Alert } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import { counted, formatDate, minutesPerDay, planInstant, setPlanZone } from '../format';
import { GanttChart } from '../gantt/gantt-chart';
import { mergeWrite, outlineRows } from '../gantt/outline';
import { TaskDrawer } from '../gantt/task-drawer';
import { CalendarsPanel } from './calendars-panel';
import { MembersPanel } from './members-panel';
import { ResourcesPanel } from './resources-panel';
import { VersionsPanel } from './versions-panel';
import { SchedulePreview, type Span } from '../gantt/preview';
import { timeScale, type Zoom } from '../gantt/time-scale';
import { useSession } from '../session';
import type { Conflict, Dependency, Forecast, FullProject, LevelingResult, LevelingSummary, Member, PlanTask, TaskPatch, WriteResult } from '../types';

/** The last change, and how to take it back. */
interface Undoable {
  label: string;
  undo(): Promise<WriteResult>;
}

/** The values a patch would overwrite: the patch that restores them. */
function inverseOf(task: PlanTask, patch: TaskPatch): TaskPatch {
  const inverse: Record<string, unknown> = {};
  for (const field of Object.keys(patch)) inverse[field] = task[field as keyof PlanTask];
  return inverse as TaskPatch;
}

export function ProjectPage() {
  const { projectId = '', taskId } = useParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const [plan, setPlan] = useState<FullProject | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [zoom, setZoom] = useState<Zoom>('week');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(taskId ?? null);
  const [baselineId, setBaselineId] = useState<string>('');
  const [lastChange, setLastChange] = useState<Undoable | null>(null);
  const [deleting, setDeleting] = useState<PlanTask | null>(null);
  const [newName, setNewName] = useState('');
  const [newDays, setNewDays] = useState('1');
  const [asSubtask, setAsSubtask] = useState(false);
  const [panel, setPanel] = useState<'members' | 'resources' | 'versions' | 'calendars' | null>(null);

  const load = useCallback(async () => {
    try {
      const [full, list] = await Promise.all([api<FullProject>('GET', `/api/projects/${projectId}`), api<{ members: Member[] }>('GET', `/api/projects/${projectId}/members`)]);
      // Before the plan renders: its dates are shown in the zone of its calendar.
      setPlanZone(full.calendars.find((calendar) => calendar.id === full.project.calendarId)?.timeZone);
      setPlan(full);
      setMembers(list.members);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [projectId]);
  useEffect(() => void load(), [load]);
  // With uncertain durations (optimistic and pessimistic), how sure the finish is: PERT Monte Carlo.
  const uncertain = plan?.tasks.some((task) => task.durationOptimisticMin !== null && task.durationPessimisticMin !== null) ?? false;
  const [forecast, setForecast] = useState<Forecast | null>(null);
  useEffect(() => {
    if (!uncertain) return setForecast(null);
    // A forecast asked for an older plan may answer after the newer one's: only the latest is shown.
    let latest = true;
    api<{ forecast: Forecast }>('GET', `/api/projects/${projectId}/forecast`).then(
      (answer) => latest && setForecast(answer.forecast),
      () => latest && setForecast(null),
    );
    return () => {
      latest = false;
    };
  }, [projectId, uncertain, plan]);
  // Other pages show dates in UTC.
  useEffect(() => () => setPlanZone(null), []);
  useEffect(() => setSelectedId((current) => taskId ?? current), [taskId]);

  const role = members.find((member) => member.userId === user?.id)?.role;
  const editable = role === 'owner' || role === 'editor';
  const tasksById = useMemo(() => new Map((plan?.tasks ?? []).map((task) => [task.id, task])), [plan]);
  const rows = useMemo(() => outlineRows(plan?.tasks ?? [], collapsed), [plan, collapsed]);
  const scale = useMemo(() => {
    const starts = (plan?.tasks ?? []).flatMap((task) => (task.startAt ? [Date.parse(task.startAt)] : []));
    const finishes = (plan?.tasks ?? []).flatMap((task) => (task.finishAt ? [Date.parse(task.finishAt)] : []));
    const projectStart = Date.parse(planInstant(plan?.project.startDate ?? new Date().toISOString().slice(0, 10), '00:00'));
    return timeScale(zoom, Math.min(projectStart, ...starts), Math.max(projectStart, ...finishes));
  }, [plan, zoom]);
  const baseline = useMemo(() => {
    const chosen = plan?.baselines.find((saved) => saved.id === baselineId);
    return chosen ? new Map<string, Span>(chosen.tasks.map((saved) => [saved.taskId, saved])) : null;
  }, [plan, baselineId]);
  const preview = useMemo(() => (plan && editable ? new SchedulePreview(plan) : null), [plan, editable]);

  /** Runs a write, merges what the scheduler answered into the plan, and keeps its undo. */
  const write = async <Result extends WriteResult>(call: () => Promise<Result>, undo?: Undoable): Promise<Result> => {
    setError(null);
    try {
      const result = await call();
      setPlan((current) =>
        current && {
          ...current,
          tasks: mergeWrite(current.tasks, result.tasks, result.deletedTaskIds),
          dependencies: mergeWrite(current.dependencies, result.dependencies, result.deletedDependencyIds),
        },
      );
      setConflicts(result.conflicts);
      setLastChange(undo ?? null);
      return result;
    } catch (caught) {
      setError(describeError(caught));
      throw caught;
    }
  };

  const patchTask = (task: PlanTask, patch: TaskPatch, label: string) => {
    const inverse = inverseOf(task, patch);
    return write(() => api<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${task.id}`, patch), {
      label,
      undo: () => api<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${task.id}`, inverse),
    });
  };

  const link = (predecessorId: string, successorId: string) =>
    void write(() => api<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, { predecessorId, successorId, type: 'FS' })).then(
      (result) => {
        const created = result.dependencies.find((dependency) => dependency.predecessorId === predecessorId && dependency.successorId === successorId);
        if (created) setLastChange({ label: 'link', undo: () => api<WriteResult>('DELETE', `/api/projects/${projectId}/dependencies/${created.id}`) });
      },
      () => undefined,
    );

  const unlink = async (dependency: Dependency) => {
    const { predecessorId, successorId, type, lagMin } = dependency;
    await write(() => api<WriteResult>('DELETE', `/api/projects/${projectId}/dependencies/${dependency.id}`), {
      label: 'remove link',
      undo: () => api<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, { predecessorId, successorId, type, lagMin }),
    });
  };

  const relink = async (dependency: Dependency, change: Pick<Dependency, 'type' | 'lagMin'>) => {
    const { predecessorId, successorId, type, lagMin } = dependency;
    await write(() => api<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, { predecessorId, successorId, ...change }), {
      label: 'link change',
      undo: () => api<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, { predecessorId, successorId, type, lagMin }),
    });
  };

  const addTask = async (event: FormEvent) => {
    event.preventDefault();
    const parentId = asSubtask && selectedId ? selectedId : undefined;
    const result = await write(() => api<WriteResult>('POST', `/api/projects/${projectId}/tasks`, { name: newName, durationMin: Math.round(Number(newDays) * minutesPerDay), parentId })).catch(() => null);
    if (!result) return;
    setNewName('');
    const created = result.tasks.find((task) => !tasksById.has(task.id));
    if (created) setSelectedId(created.id);
  };

  /** Resource leveling: a preview first (`?dryRun=true`), applied only when the person agrees, undone by putting the delays back. */
  const [leveling, setLeveling] = useState<LevelingSummary | null>(null);
  const previewLeveling = async () => {
    setError(null);
    try {
      setLeveling((await api<LevelingResult>('POST', `/api/projects/${projectId}/level?dryRun=true`, {})).leveling);
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const applyLeveling = async () => {
    setLeveling(null);
    const result = await write(() => api<LevelingResult>('POST', `/api/projects/${projectId}/level`, {})).catch(() => null);
    // Undo puts back the delays this leveling replaced (the plan may have changed since the preview).
    const restore = result?.leveling.tasks.map((task) => ({ id: task.taskId, levelingDelayMin: task.levelingDelayMin.from }));
    if (restore?.length) setLastChange({ label: 'leveling', undo: () => api<WriteResult>('POST', `/api/projects/${projectId}/tasks`, { updateTasks: restore }) });
  };

  const saveBaseline = async () => {
    try {
      const { baseline: saved } = await api<{ baseline: { id: string } }>('POST', `/api/projects/${projectId}/baseline`, {});
      await load();
      setBaselineId(saved.id);
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  if (error && !plan) return <main className="page"><Alert>{error}</Alert><Link to="/">Back to projects</Link></main>;
  if (!plan) return <p className="loading">Loading…</p>;
  const opened = taskId ? tasksById.get(taskId) : undefined;
  const selected = selectedId ? tasksById.get(selectedId) : undefined;

  return (
    <main className="project">
      <div className="project-bar">
        <h1>
          <span className="muted">{plan.project.key}</span> {plan.project.name}
        </h1>
        <span className="muted">
          {formatDate(planInstant(plan.project.startDate, '12:00'))} · {counted(plan.tasks.length, 'task')}
          {forecast && ` · finish ${formatDate(forecast.finishAt)}, 80 % sure by ${formatDate(forecast.p80FinishAt)}`}
        </span>
        <div className="toolbar" role="toolbar" aria-label="Chart">
          <label htmlFor="chart-zoom">Zoom</label>
          <select id="chart-zoom" value={zoom} onChange={(event) => setZoom(event.target.value as Zoom)}>
              <option value="day">Days</option>
              <option value="week">Weeks</option>
              <option value="month">Months</option>
          </select>
          <label htmlFor="chart-baseline">Baseline</label>
          <select id="chart-baseline" value={baselineId} onChange={(event) => setBaselineId(event.target.value)}>
              <option value="">None</option>
              {plan.baselines.map((saved) => (
                <option key={saved.id} value={saved.id}>
                  {saved.name} ({formatDate(saved.capturedAt)})
                </option>
              ))}
          </select>
          {editable && (
            <button type="button" className="secondary" onClick={() => void saveBaseline()}>
              Save baseline
            </button>
          )}
          {editable && plan.assignments.length > 0 && (
            <button type="button" className="secondary" onClick={() => void previewLeveling()}>
              Level resources
            </button>
          )}
          <button type="button" className="secondary" aria-pressed={panel === 'members'} onClick={() => setPanel(panel === 'members' ? null : 'members')}>
            Members
          </button>
          <button type="button" className="secondary" aria-pressed={panel === 'resources'} onClick={() => setPanel(panel === 'resources' ? null : 'resources')}>
            Resources
          </button>
          <button type="button" className="secondary" aria-pressed={panel === 'calendars'} onClick={() => setPanel(panel === 'calendars' ? null : 'calendars')}>
            Calendars
          </button>
          <button type="button" className="secondary" aria-pressed={panel === 'versions'} onClick={() => setPanel(panel === 'versions' ? null : 'versions')}>
            Versions and files
          </button>
          {lastChange && (
            <button type="button" className="secondary" onClick={() => void write(lastChange.undo).catch(() => undefined)}>
              Undo {lastChange.label}
            </button>
          )}
        </div>
      </div>
      {error && <Alert>{error}</Alert>}
      {leveling && (
        <section className="conflicts" aria-label="Resource leveling" role="status">
          <h2>Resource leveling</h2>
          {leveling.tasks.length === 0 ? (
            <p>
              Nothing to level: {leveling.overallocations.length === 0 ? 'every resource is within its max. units.' : 'no task can move to take load off a resource.'}
            </p>
          ) : (
            <p>
              Leveling delays {leveling.tasks.length} {leveling.tasks.length === 1 ? 'task' : 'tasks'} ({leveling.tasks.map((task) => task.key).join(', ')}); the project
              finish moves from {formatDate(leveling.projectFinishAt.from)} to {formatDate(leveling.projectFinishAt.to)}.
            </p>
          )}
          {leveling.overallocations.length > 0 && <p>{leveling.overallocations.length} over-allocations stay (tasks leveling does not move, or more than a resource can give).</p>}
          {leveling.tasks.length > 0 && (
            <button type="button" onClick={() => void applyLeveling()}>
              Apply leveling
            </button>
          )}{' '}
          <button type="button" className="secondary" onClick={() => setLeveling(null)}>
            {leveling.tasks.length > 0 ? 'Cancel' : 'Close'}
          </button>
        </section>
      )}
      {conflicts.length > 0 && (
        <section className="conflicts" aria-label="Conflicts">
          <h2>Conflicts the scheduler kept</h2>
          <ul>
            {conflicts.map((conflict, index) => (
              <li key={index}>
                <button type="button" className="link" onClick={() => setSelectedId(conflict.taskId)}>
                  {tasksById.get(conflict.taskId)?.key}
                </button>{' '}
                {conflict.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      {editable && (
        <form className="inline-form" onSubmit={addTask} aria-label="New task">
          <label className="visually-hidden" htmlFor="new-task-name">Task name</label>
          <input id="new-task-name" placeholder="New task name" required value={newName} onChange={(event) => setNewName(event.target.value)} />
          <label htmlFor="new-task-days">Duration (days)</label>
          <input id="new-task-days" type="number" min={0} step={0.5} className="narrow" value={newDays} onChange={(event) => setNewDays(event.target.value)} />
          <label className="check">
            <input type="checkbox" checked={asSubtask} disabled={!selected} onChange={(event) => setAsSubtask(event.target.checked)} /> under {selected ? selected.key : 'the selected task'}
          </label>
          <button type="submit">Add task</button>
        </form>
      )}
      <div className="workspace">
        {plan.tasks.length === 0 ? (
          <p className="empty">No tasks yet: add the first one above.</p>
        ) : (
          <GanttChart
            rows={rows}
            dependencies={plan.dependencies}
            scale={scale}
            nowMs={Date.now()}
            selectedId={selectedId}
            collapsed={collapsed}
            baseline={baseline}
            preview={preview}
            editable={editable}
            onSelect={setSelectedId}
            onOpen={(id) => void navigate(`/projects/${projectId}/tasks/${id}`)}
            onToggle={(id) => setCollapsed((current) => {
              const next = new Set(current);
              if (!next.delete(id)) next.add(id);
              return next;
            })}
            onDelete={(id) => setDeleting(tasksById.get(id) ?? null)}
            onEdit={(task, patch, label) => patchTask(task, patch, label).catch(() => undefined)}
            onLink={link}
          />
        )}
        {panel === 'members' && !opened && <MembersPanel projectId={projectId} members={members} isOwner={role === 'owner'} onChanged={load} onClose={() => setPanel(null)} />}
        {panel === 'resources' && !opened && <ResourcesPanel projectId={projectId} resources={plan.resources} editable={editable} onChanged={load} onClose={() => setPanel(null)} />}
        {panel === 'calendars' && !opened && <CalendarsPanel project={plan.project} calendars={plan.calendars} editable={editable} onChanged={load} onClose={() => setPanel(null)} />}
        {panel === 'versions' && !opened && <VersionsPanel project={plan.project} editable={editable} onRestored={load} onClose={() => setPanel(null)} />}
        {opened && (
          <TaskDrawer
            key={opened.id}
            projectId={projectId}
            task={opened}
            planned={baseline?.get(opened.id) ?? null}
            tasksById={tasksById}
            dependencies={plan.dependencies}
            members={members}
            calendars={plan.calendars}
            resources={plan.resources.filter((resource) => resource.userId === null)}
            editable={editable}
            assignedResourceIds={plan.assignments.filter((assignment) => assignment.taskId === opened.id).map((assignment) => assignment.resourceId)}
            onSave={async (patch) => void (await patchTask(opened, patch, 'edit'))}
            onAssign={async (assignees) => {
              await write(() => api<WriteResult>('PUT', `/api/projects/${projectId}/tasks/${opened.id}/assignees`, assignees));
              await load();
            }}
            onUnlink={unlink}
            onRelink={relink}
            onDelete={() => setDeleting(opened)}
            onClose={() => void navigate(`/projects/${projectId}`)}
          />
        )}
      </div>
      {deleting && (
        <ConfirmDeletion
          title={`Delete ${deleting.key} ${deleting.name}?`}
          explanation={
            plan.tasks.some((task) => task.parentId === deleting.id)
              ? 'The task, all its subtasks, their links and comments are deleted. This cannot be undone.'
              : 'The task, its links and comments are deleted. This cannot be undone.'
          }
          expected={deleting.key}
          onConfirm={async () => {
            await write(() => api<WriteResult>('DELETE', `/api/projects/${projectId}/tasks/${deleting.id}?confirm=${encodeURIComponent(deleting.key)}`));
            if (taskId === deleting.id) void navigate(`/projects/${projectId}`);
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </main>
  );
}
