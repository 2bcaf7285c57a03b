import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { call, describeError } from '../client';
import { Alert, TableHead } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import { counted, formatDate } from '../format';
import type { ProjectListItem } from '../types';
import { NewProject } from './new-project';

export function ProjectsPage() {
  const navigate = useNavigate();
  const [projects, setProjects] = useState<ProjectListItem[] | null>(null);
  const [showArchived, setShowArchived] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ProjectListItem | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await call('listProjects', { query: showArchived ? { archived: '1' } : {} });
      setProjects(answer.projects);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [showArchived]);
  useEffect(() => void load(), [load]);

  const duplicate = async (source: ProjectListItem) => {
    try {
      const { project } = await call('duplicateProject', { params: { projectId: source.id }, body: {} });
      void navigate(`/projects/${project.id}`);
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const setArchived = async (project: ProjectListItem, archived: boolean) => {
    try {
      await call('updateProject', { params: { projectId: project.id }, body: { archived } });
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <main className="page">
      <h1>Projects</h1>
      {error && <Alert>{error}</Alert>}
      <NewProject />
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
                  <button type="button" className="link" onClick={() => void duplicate(project)}>
                    Duplicate
                  </button>
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
          explanation={`The project, its ${counted(deleting.taskCount, 'task')}, their dependencies and comments are deleted for everyone. This cannot be undone.`}
          expected={deleting.key}
          onConfirm={async () => {
            await call('deleteProject', { params: { projectId: deleting.id }, query: { confirm: deleting.key } });
            await load();
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </main>
  );
}
