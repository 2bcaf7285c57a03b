import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { call, describeError } from '../client';
import { Alert } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import { counted, formatDate, minutesPerDay, planInstant, setPlanZone } from '../format';
import { useColumnLayout } from '../gantt/column-layout';
import { ColumnsPanel } from '../gantt/columns-panel';
import { GanttChart } from '../gantt/gantt-chart';
import { BulkEditDrawer } from '../gantt/bulk-edit';
import { TaskDrawer } from '../gantt/task-drawer';
import { SchedulePreview, type Span } from '../gantt/preview';
import { timeScale, type Zoom } from '../gantt/time-scale';
import { asText, parseCopied, tasksFromText, tasksMediaType, type CopiedTasks } from '../plan/clipboard';
import { PlanStore, type NewTaskPlace } from '../plan/plan-store';
import { PlanStoreContext, usePlan } from '../plan/use-plan';
import { useSession } from '../session';
import type { Forecast, LevelingSummary } from '../types';
import { CalendarsPanel } from './calendars-panel';
import { MembersPanel } from './members-panel';
import { ResourcesPanel } from './resources-panel';
import { VersionsPanel } from './versions-panel';

/** The Gantt page: opens the plan's store, then shows it. */
export function ProjectPage() {
  const { projectId = '' } = useParams();
  const [store, setStore] = useState<PlanStore | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setStore(null);
    PlanStore.open(call, projectId).then(
      (opened) => current && setStore(opened),
      (caught: unknown) => current && setError(describeError(caught)),
    );
    return () => {
      current = false;
    };
  }, [projectId]);
  // Other pages show dates in UTC.
  useEffect(() => () => setPlanZone(null), []);

  if (error) return <main className="page"><Alert>{error}</Alert><Link to="/">Back to projects</Link></main>;
  if (!store) return <p className="loading">Loading…</p>;
  return (
    <PlanStoreContext.Provider value={store}>
      <PlanView store={store} />
    </PlanStoreContext.Provider>
  );
}

const lastCopiedKey = 'gantry.copiedTasks';

/**
 * What was copied last in this browser tab (kept across pages and reloads), for the Paste
 * button: a button cannot read the system clipboard without asking. Ctrl+C and the Copy
 * button both keep it.
 */
const lastCopied = {
  get(): CopiedTasks | null {
    return parseCopied(sessionStorage.getItem(lastCopiedKey) ?? '');
  },
  set(copied: CopiedTasks): void {
    sessionStorage.setItem(lastCopiedKey, JSON.stringify(copied));
  },
};

/** Whether a key press is meant for a field being typed in, not for the plan. */
function typingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function PlanView({ store }: { store: PlanStore }) {
  const { taskId } = useParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const plan = usePlan((state) => state.plan);
  const members = usePlan((state) => state.members);
  const tasksById = usePlan((state) => state.tasksById);
  const selection = usePlan((state) => state.selection);
  const conflicts = usePlan((state) => state.conflicts);
  const history = usePlan((state) => state.history);
  const notice = usePlan((state) => state.notice);
  const projectId = plan.project.id;
  // Before anything renders: the plan's dates are shown in the zone of its calendar (which the calendars panel may change).
  setPlanZone(plan.calendars.find((calendar) => calendar.id === plan.project.calendarId)?.timeZone);

  const [zoom, setZoom] = useState<Zoom>('week');
  const [baselineId, setBaselineId] = useState<string>('');
  const [deleting, setDeleting] = useState<readonly string[] | null>(null);
  const [newName, setNewName] = useState('');
  const [newDays, setNewDays] = useState('1');
  const [newPlace, setNewPlace] = useState<NewTaskPlace>('after');
  const [panel, setPanel] = useState<'columns' | 'members' | 'resources' | 'versions' | 'calendars' | 'bulk' | null>(null);
  const [columnLayout, changeColumns] = useColumnLayout(user?.id ?? '', projectId);
  const [leveling, setLeveling] = useState<LevelingSummary | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);

  // With uncertain durations (optimistic and pessimistic), how sure the finish is: PERT Monte Carlo.
  const uncertain = plan.tasks.some((task) => task.durationOptimisticMin !== null && task.durationPessimisticMin !== null);
  const [forecast, setForecast] = useState<Forecast | null>(null);
  useEffect(() => {
    if (!uncertain) return setForecast(null);
    // A forecast asked for an older plan may answer after the newer one's: only the latest is shown.
    let latest = true;
    call('getForecast', { params: { projectId } }).then(
      (answer) => latest && setForecast(answer.forecast),
      () => latest && setForecast(null),
    );
    return () => {
      latest = false;
    };
  }, [projectId, uncertain, plan]);
  // A task opened by its address is the selection too.
  useEffect(() => {
    if (taskId && tasksById.has(taskId) && store.getState().selection.focusId !== taskId) store.select(taskId);
  }, [taskId, tasksById, store]);

  const role = members.find((member) => member.userId === user?.id)?.role;
  const editable = role === 'owner' || role === 'editor';
  const scale = useMemo(() => {
    const starts = plan.tasks.flatMap((task) => (task.startAt ? [Date.parse(task.startAt)] : []));
    const finishes = plan.tasks.flatMap((task) => (task.finishAt ? [Date.parse(task.finishAt)] : []));
    const projectStart = Date.parse(planInstant(plan.project.startDate, '00:00'));
    return timeScale(zoom, Math.min(projectStart, ...starts), Math.max(projectStart, ...finishes));
  }, [plan, zoom]);
  const baseline = useMemo(() => {
    const chosen = plan.baselines.find((saved) => saved.id === baselineId);
    return chosen ? new Map<string, Span>(chosen.tasks.map((saved) => [saved.taskId, saved])) : null;
  }, [plan, baselineId]);
  const preview = useMemo(() => (editable ? new SchedulePreview(plan) : null), [plan, editable]);

  // Undo and redo answer wherever the focus is, except in a field being typed in (which undoes its own typing).
  useEffect(() => {
    if (!editable) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (typingIn(event.target) || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) void store.undo();
      else if (key === 'y' || (key === 'z' && event.shiftKey)) void store.redo();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [store, editable]);

  // Ctrl+C and Ctrl+V on the chart: tasks as JSON for Gantry (this plan or another), as tab-separated text for spreadsheets.
  useEffect(() => {
    const onChart = () => document.activeElement?.closest('[role="treegrid"]') !== null && document.activeElement !== null;
    const onCopy = (event: ClipboardEvent) => {
      const copied = onChart() ? store.copySelection() : null;
      if (!copied || !event.clipboardData) return;
      event.preventDefault();
      lastCopied.set(copied);
      event.clipboardData.setData(tasksMediaType, JSON.stringify(copied));
      event.clipboardData.setData('text/plain', asText(copied, minutesPerDay));
    };
    const onPaste = (event: ClipboardEvent) => {
      if (!editable || !onChart() || !event.clipboardData) return;
      const copied = parseCopied(event.clipboardData.getData(tasksMediaType)) ?? tasksFromText(event.clipboardData.getData('text/plain'), minutesPerDay);
      if (!copied) return;
      event.preventDefault();
      void store.paste(copied);
    };
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, [store, editable]);

  const reportFailure = (caught: unknown) => setPageError(describeError(caught));
  const reload = () => store.reload().catch(reportFailure);

  const addTask = async (event: FormEvent) => {
    event.preventDefault();
    const added = await store.addTask({ name: newName, durationMin: Math.round(Number(newDays) * minutesPerDay) }, newPlace);
    if (!added) return;
    setNewName('');
    // "Under" adds subtasks to the same task again, never to the one just added: no staircase.
    if (newPlace === 'under') store.select(selection.focusId ?? '');
  };

  const previewLeveling = async () => {
    setPageError(null);
    try {
      setLeveling((await store.previewLeveling()).leveling);
    } catch (caught) {
      reportFailure(caught);
    }
  };

  const saveBaseline = async () => {
    try {
      const { baseline: saved } = await call('saveBaseline', { params: { projectId }, body: {} });
      await store.reload();
      setBaselineId(saved.id);
    } catch (caught) {
      reportFailure(caught);
    }
  };

  const opened = taskId ? tasksById.get(taskId) : undefined;
  /** Opens the task's drawer, or, with several tasks selected, one form for all of them. */
  const openSelection = (id: string) => {
    if (selection.ids.size > 1 && selection.ids.has(id)) {
      if (taskId) void navigate(`/projects/${projectId}`);
      setPanel('bulk');
    } else void navigate(`/projects/${projectId}/tasks/${id}`);
  };
  const bulkTasks = panel === 'bulk' ? plan.tasks.filter((task) => selection.ids.has(task.id)) : [];
  const focused = selection.focusId ? tasksById.get(selection.focusId) : undefined;
  const deletion = deleting ? store.deletionOf(deleting) : null;
  const shown = pageError ?? notice;

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
          {(['columns', 'members', 'resources', 'calendars', 'versions'] as const).map((name) => (
            <button key={name} type="button" className="secondary" aria-pressed={panel === name} onClick={() => setPanel(panel === name ? null : name)}>
              {{ columns: 'Columns', members: 'Members', resources: 'Resources', calendars: 'Calendars', versions: 'Versions and files' }[name]}
            </button>
          ))}
        </div>
      </div>
      {editable && (
        <EditBar
          store={store}
          undoLabel={history.undoLabel}
          redoLabel={history.redoLabel}
          selected={selection.ids.size}
          busy={history.busy}
          onDelete={() => setDeleting([...selection.ids])}
          onInformation={() => selection.focusId && openSelection(selection.focusId)}
        />
      )}
      {shown && (
        <Alert>
          {shown}{' '}
          <button type="button" className="link" onClick={() => (setPageError(null), store.dismissNotice())}>
            Dismiss
          </button>
        </Alert>
      )}
      {leveling && (
        <section className="conflicts" aria-label="Resource leveling" role="status">
          <h2>Resource leveling</h2>
          {leveling.tasks.length === 0 ? (
            <p>
              Nothing to level: {leveling.overallocations.length === 0 ? 'every resource is within its max. units.' : 'no task can move to take load off a resource.'}
            </p>
          ) : (
            <p>
              Leveling delays {counted(leveling.tasks.length, 'task')} ({leveling.tasks.map((task) => task.key).join(', ')}); the project finish moves from{' '}
              {formatDate(leveling.projectFinishAt.from)} to {formatDate(leveling.projectFinishAt.to)}.
            </p>
          )}
          {leveling.overallocations.length > 0 && <p>{leveling.overallocations.length} over-allocations stay (tasks leveling does not move, or more than a resource can give).</p>}
          {leveling.tasks.length > 0 && (
            <button type="button" onClick={() => (setLeveling(null), void store.level())}>
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
                <button type="button" className="link" onClick={() => store.select(conflict.taskId)}>
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
          <label htmlFor="new-task-place">Where</label>
          <select id="new-task-place" value={newPlace} disabled={!focused} onChange={(event) => setNewPlace(event.target.value as NewTaskPlace)}>
            <option value="after">after {focused ? focused.key : 'the selected task'}</option>
            <option value="above">above {focused ? focused.key : 'the selected task'}</option>
            <option value="under">under {focused ? focused.key : 'the selected task'}</option>
          </select>
          <button type="submit">Add task</button>
        </form>
      )}
      <div className="workspace">
        {plan.tasks.length === 0 ? (
          <p className="empty">No tasks yet: add the first one above.</p>
        ) : (
          <GanttChart
            scale={scale}
            nowMs={Date.now()}
            baseline={baseline}
            preview={preview}
            editable={editable}
            onOpen={openSelection}
            onDelete={(ids) => setDeleting(ids)}
            onInsert={() => document.getElementById('new-task-name')?.focus()}
            columnLayout={columnLayout}
            onColumnLayout={changeColumns}
          />
        )}
        {panel === 'columns' && !opened && <ColumnsPanel layout={columnLayout} onChange={changeColumns} onClose={() => setPanel(null)} />}
        {panel === 'members' && !opened && <MembersPanel projectId={projectId} members={members} isOwner={role === 'owner'} onChanged={reload} onClose={() => setPanel(null)} />}
        {panel === 'resources' && !opened && <ResourcesPanel projectId={projectId} resources={plan.resources} editable={editable} onChanged={reload} onClose={() => setPanel(null)} />}
        {panel === 'calendars' && !opened && <CalendarsPanel project={plan.project} calendars={plan.calendars} editable={editable} onChanged={reload} onClose={() => setPanel(null)} />}
        {panel === 'versions' && !opened && <VersionsPanel project={plan.project} editable={editable} onRestored={reload} onClose={() => setPanel(null)} />}
        {panel === 'bulk' && !opened && bulkTasks.length > 1 && (
          <BulkEditDrawer
            // A new selection is a new form: what the tasks have in common is read again.
            key={bulkTasks.map((task) => task.id).join()}
            tasks={bulkTasks}
            hasSummary={bulkTasks.some((task) => plan.tasks.some((other) => other.parentId === task.id))}
            calendars={plan.calendars}
            editable={editable}
            onSave={(patch) => store.editTasks(bulkTasks, patch, `edit ${bulkTasks.length} tasks`).then(store.throwIfFailed)}
            onClose={() => {
              setPanel(null);
              document.querySelector<HTMLElement>('.gantt')?.focus();
            }}
          />
        )}
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
            onSave={(patch) => store.editTask(opened, patch).then(store.throwIfFailed)}
            onAssign={(assignees) => store.assignTask(opened.id, assignees).then(store.throwIfFailed)}
            onUnlink={(dependency) => store.unlink([dependency]).then(store.throwIfFailed)}
            onRelink={(dependency, change) => store.relink(dependency, change).then(store.throwIfFailed)}
            onDelete={() => setDeleting([opened.id])}
            onClose={() => void navigate(`/projects/${projectId}`)}
          />
        )}
      </div>
      {deleting && deletion && deletion.tops.length > 0 && (
        <ConfirmDeletion
          title={deletion.tops.length === 1 ? `Delete ${deletion.tops[0]!.key} ${deletion.tops[0]!.name}?` : `Delete ${counted(deletion.tops.length, 'task')}?`}
          explanation={`${deletion.tops.map((task) => `${task.key} ${task.name}`).join(', ')}${
            deletion.count > deletion.tops.length ? ` and ${counted(deletion.count - deletion.tops.length, 'subtask')}` : ''
          }, with their links and comments, will be deleted. Undo (Ctrl+Z) brings the tasks and their links back; comments do not come back.`}
          onConfirm={async () => {
            const gone = await store.deleteTasks(deleting);
            if (!gone) throw new Error(store.getState().notice ?? 'Not deleted');
            if (taskId && !store.getState().tasksById.has(taskId)) void navigate(`/projects/${projectId}`);
          }}
          onClose={() => {
            setDeleting(null);
            document.querySelector<HTMLElement>('.gantt')?.focus();
          }}
        />
      )}
    </main>
  );
}

/** The editing commands, each with its key, for mouse users and as a map of the keys. */
function EditBar(props: { store: PlanStore; undoLabel: string | null; redoLabel: string | null; selected: number; busy: boolean; onDelete(): void; onInformation(): void }) {
  const { store, selected } = props;
  const none = selected === 0;
  const command = (label: string, keys: string, run: () => unknown, disabled: boolean) => (
    <button type="button" className="secondary" aria-keyshortcuts={keys} title={`${label} (${keys.replace(/ /g, ' or ')})`} disabled={disabled} onClick={() => void run()}>
      {label}
    </button>
  );
  return (
    <div className="toolbar edit-bar" role="toolbar" aria-label="Edit" aria-busy={props.busy}>
      {command(props.undoLabel ? `Undo ${props.undoLabel}` : 'Undo', 'Control+Z', store.undo.bind(store), !props.undoLabel)}
      {command(props.redoLabel ? `Redo ${props.redoLabel}` : 'Redo', 'Control+Y Control+Shift+Z', store.redo.bind(store), !props.redoLabel)}
      {command('Indent', 'Alt+Shift+ArrowRight', store.indent, none)}
      {command('Outdent', 'Alt+Shift+ArrowLeft', store.outdent, none)}
      {command('Move up', 'Alt+Shift+ArrowUp', store.moveUp, none)}
      {command('Move down', 'Alt+Shift+ArrowDown', store.moveDown, none)}
      {command('Copy', 'Control+C', () => {
        const copied = store.copySelection();
        if (copied) lastCopied.set(copied);
      }, none)}
      {command('Paste', 'Control+V', () => {
        const copied = lastCopied.get();
        return copied && store.paste(copied);
      }, false)}
      {command('Link', 'Control+F2', store.linkSelection, selected < 2)}
      {command('Unlink', 'Control+Shift+F2', store.unlinkSelection, none)}
      {command('Information', 'Shift+F2', props.onInformation, none)}
      {command('Delete', 'Delete', props.onDelete, none)}
    </div>
  );
}
