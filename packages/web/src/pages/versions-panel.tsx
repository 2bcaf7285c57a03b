import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, call, describeError, href } from '../client';
import { Alert, Field, SidePanel, usePanelAction } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import { counted, formatDate } from '../format';
import type { Project, ProjectVersion } from '../types';

/**
 * The plan's saved versions (save one, restore one), and the plan as a file: exported for
 * Microsoft Project or a spreadsheet, or saved as a template for the workspace.
 */
export function VersionsPanel({ project, editable, onRestored, onClose }: { project: Project; editable: boolean; onRestored(): Promise<void>; onClose(): void }) {
  const [versions, setVersions] = useState<ProjectVersion[]>([]);
  const [name, setName] = useState('');
  const [restoring, setRestoring] = useState<ProjectVersion | null>(null);
  const { error, setError, notice, run } = usePanelAction();
  const params = { projectId: project.id };

  const load = useCallback(async () => {
    try {
      setVersions((await call('listVersions', { params: { projectId: project.id } })).versions);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [project.id, setError]);
  useEffect(() => void load(), [load]);

  const saveVersion = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await call('saveVersion', { params, body: name.trim() ? { name: name.trim() } : {} });
      setName('');
      await load();
      return 'Version saved.';
    });
  };
  const saveTemplate = () =>
    void run(async () => {
      await call('createTemplate', { body: { projectId: project.id } });
      return `Saved as the template "${project.name}": it is offered when a project is created.`;
    });

  return (
    <SidePanel title="Versions and files" closeLabel="Close versions and files" onClose={onClose}>
      {typeof error === 'string' && <Alert>{error}</Alert>}
      {error instanceof ApiError && error.fields.length === 0 && <Alert>{error.message}</Alert>}
      {notice && <Alert kind="info">{notice}</Alert>}
      <h3>Saved versions</h3>
      {editable && (
        <form onSubmit={saveVersion}>
          <Field label="Name of the version (optional)" value={name} onChange={(e) => setName(e.target.value)} error={error instanceof ApiError ? error.field('name') : undefined} />
          <button type="submit">Save this version</button>
        </form>
      )}
      {versions.length === 0 ? (
        <p className="muted">No saved versions yet.</p>
      ) : (
        <ul className="versions">
          {versions.map((version) => (
            <li key={version.id}>
              <strong>{version.name ?? 'Unnamed version'}</strong> <span className="muted">{formatDate(version.createdAt)} · {counted(version.taskCount, 'task')}</span>{' '}
              {editable && (
                <button type="button" className="link danger" onClick={() => setRestoring(version)}>
                  Restore…
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <h3>Export</h3>
      <ul>
        <li>
          <a href={href('exportProject', { params, query: { format: 'mspdi' } })} download>
            Microsoft Project (.xml)
          </a>
        </li>
        <li>
          <a href={href('exportProject', { params, query: { format: 'csv' } })} download>
            Spreadsheet (.csv)
          </a>
        </li>
      </ul>
      {editable && (
        <>
          <h3>Template</h3>
          <button type="button" className="secondary" onClick={saveTemplate}>
            Save as a template
          </button>
        </>
      )}
      {restoring && (
        <ConfirmDeletion
          title={`Restore ${restoring.name ?? 'this version'}?`}
          explanation="The plan becomes what it was then: tasks created since are deleted, changed ones get their saved values back. The plan as it is now is saved as a version first."
          expected={project.key}
          action="Restore"
          onConfirm={async () => {
            await call('restoreVersion', { params: { ...params, versionId: restoring.id }, query: { confirm: project.key } });
            await Promise.all([load(), onRestored()]);
          }}
          onClose={() => setRestoring(null)}
        />
      )}
    </SidePanel>
  );
}
