import { useState, type FormEvent } from 'react';
import { ApiError, call, describeError } from '../client';
import { Alert, Field, SidePanel, usePanelAction } from '../components';
import type { Resource } from '../types';

/**
 * Who and what tasks can be assigned to: members (once assigned) and resources without an
 * account, each with its Max. Units, which leveling keeps the load within. Editors add
 * resources and change names and units; no date moves until the plan is leveled.
 */
export function ResourcesPanel({ projectId, resources, editable, onChanged, onClose }: { projectId: string; resources: readonly Resource[]; editable: boolean; onChanged(): Promise<void>; onClose(): void }) {
  const { error, notice, run } = usePanelAction(onChanged);
  const [draft, setDraft] = useState({ name: '', maxUnitsPct: '100' });

  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { resource } = await call('createResource', { params: { projectId }, body: { name: draft.name, maxUnitsPct: Number(draft.maxUnitsPct) } });
      return `"${resource.name}" added: assign it to tasks from a task's details.`;
    }).then((done) => done && setDraft({ name: '', maxUnitsPct: '100' }));
  };
  const fieldError = (path: string) => (error instanceof ApiError ? error.field(path) : undefined);

  return (
    <SidePanel title="Resources" closeLabel="Close the resources" onClose={onClose}>
      {typeof error === 'string' && <Alert>{error}</Alert>}
      {error instanceof ApiError && <Alert>{describeError(error)}</Alert>}
      {notice && <Alert kind="info">{notice}</Alert>}
      <p className="muted">Max. units: how much of a resource there is at once (100 % is one full-time person, 300 % three). Leveling keeps each resource within it.</p>
      {resources.length === 0 && <p className="muted">None yet: members appear once assigned to a task.</p>}
      <ul className="resources">
        {resources.map((resource) => (
          <ResourceRow key={`${resource.id}-${resource.name}-${resource.maxUnitsPct}`} resource={resource} editable={editable} params={{ projectId, resourceId: resource.id }} run={run} />
        ))}
      </ul>
      {editable && (
        <>
          <h3>New resource</h3>
          <form onSubmit={create} aria-label="New resource">
            <Field label="Resource name" placeholder="Crane, Electricians, Contractor" required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={fieldError('name')} />
            <Field label="Max. units (%)" type="number" min={1} step={1} required value={draft.maxUnitsPct} onChange={(e) => setDraft({ ...draft, maxUnitsPct: e.target.value })} error={fieldError('maxUnitsPct')} />
            <button type="submit">Add resource</button>
          </form>
        </>
      )}
    </SidePanel>
  );
}

/** One resource: its name and Max. Units, changed in place by editors. */
function ResourceRow({ resource, editable, params, run }: { resource: Resource; editable: boolean; params: { projectId: string; resourceId: string }; run(action: () => Promise<string>): Promise<boolean> }) {
  const [name, setName] = useState(resource.name);
  const [units, setUnits] = useState(String(resource.maxUnitsPct));
  const kind = resource.userId === null ? 'no account' : 'member';
  if (!editable) {
    return (
      <li>
        <strong>{resource.name}</strong> <span className="muted">{kind}</span> · {resource.maxUnitsPct} %
      </li>
    );
  }
  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const saved = await call('updateResource', { params, body: { name, maxUnitsPct: Number(units) } });
      return `"${saved.resource.name}" saved (${saved.resource.maxUnitsPct} %).`;
    });
  };
  return (
    <li>
      <form className="resource" onSubmit={save} aria-label={`Resource ${resource.name}`}>
        <Field label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Max. units (%)" type="number" min={1} step={1} required value={units} onChange={(e) => setUnits(e.target.value)} />
        <span className="muted">{kind}</span>
        <button type="submit" className="secondary" disabled={name === resource.name && units === String(resource.maxUnitsPct)}>
          Save
        </button>
      </form>
    </li>
  );
}
