import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, describeError } from '../api';
import { Alert, Card } from '../components';
import type { Project } from '../types';

/** An invite link: the signed-in person joins the project with the invite's role. */
export function JoinPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const join = async () => {
    try {
      const { project } = await api<{ project: Project }>('POST', '/api/invites/accept', { token });
      void navigate(`/projects/${project.id}`, { replace: true });
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  return (
    <Card title="Join a project">
      {error && <Alert>This invite cannot be used: {error}</Alert>}
      <p>You were invited to plan together in Gantry.</p>
      <button type="button" onClick={() => void join()}>
        Join the project
      </button>
    </Card>
  );
}
