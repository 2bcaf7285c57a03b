import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiError, describeError } from '../api';
import { Alert, Field, TableHead } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import { formatDate } from '../format';
import type { Project, ProjectListItem } from '../types';

export function ProjectsPage() {
  const navigate = useNavigate();
  const [projects, setProjects] = useState<ProjectListItem[] | null>(null);
  const [showArchived, setShowArchived] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ProjectListItem | null>(null);
  const [name, setName] = useState('');
  const [startDate, setStartDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [createError, setCreateError] = useState<ApiError | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await api<{ projects: ProjectListItem[] }>('GET', `/api/projects${showArchived ? '?archived=1' : ''}`);
      setProjects(answer.projects);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [showArchived]);
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreateError(null);
    try {
      const { project } = await api<{ project: Project }>('POST', '/api/projects', { name, startDate });
      void navigate(`/projects/${project.id}`);
    } catch (caught) {
      if (caught instanceof ApiError) setCreateError(caught);
      else setError(describeError(caught));
    }
  };

  const setArchived = async (project: ProjectListItem, archived: boolean) => {
    try {
      await api('PATCH', `/api/projects/${project.id}`, { archived });
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <main className="page">
      <h1>Projects</h1>
      {error && <Alert>{error}</Alert>}
      <form className="inline-form" onSubmit={create} aria-label="New project">
        <Field label="Project name" placeholder="Website relaunch" required value={name} onChange={(e) => setName(e.target.value)} error={createError?.field('name')} />
        <Field label="Start" type="date" required value={startDate} onChange={(e) => setStartDate(e.target.value)} error={createError?.field('startDate')} />
        <button type="submit">Create</button>
      </form>
      {createError && createError.fields.length === 0 && <Alert>{createError.message}</Alert>}
      <label className="check">
        <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived projects
      </label>
      {projects === null ? (
        <p className="loading">Loading…</p>
      ) : projects.length === 0 ? (
        <p className="empty">No projects yet: create the first one above.</p>
      ) : (
        <table className="projects">
          <TableHead columns={['Key', 'Name', 'Workspace', 'Tasks', 'Start', 'Finish']} />
          <tbody>
            {projects.map((project) => (
              <tr key={project.id} className={project.archivedAt ? 'archived' : undefined}>
                <td>{project.key}</td>
                <td>
                  <Link to={`/projects/${project.id}`}>{project.name}</Link>
                  {project.archivedAt && <span className="badge">archived</span>}
                </td>
                <td>{project.workspaceName}</td>
                <td>{project.taskCount}</td>
                <td>{formatDate(`${project.startDate}T00:00:00Z`)}</td>
                <td>{formatDate(project.finishAt)}</td>
                <td className="row-actions">
                  {project.role === 'owner' && (
                    <>
                      <button type="button" className="link" onClick={() => void setArchived(project, !project.archivedAt)}>
                        {project.archivedAt ? 'Unarchive' : 'Archive'}
                      </button>
                      <button type="button" className="link danger" onClick={() => setDeleting(project)}>
                        Delete…
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <ConfirmDeletion
          title={`Delete ${deleting.name}?`}
          explanation={`The project, its ${deleting.taskCount} tasks, their dependencies and comments are deleted for everyone. This cannot be undone.`}
          expected={deleting.key}
          onConfirm={async () => {
            await api('DELETE', `/api/projects/${deleting.id}?confirm=${encodeURIComponent(deleting.key)}`);
            await load();
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </main>
  );
}
