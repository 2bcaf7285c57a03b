import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, call, describeError } from '../client';
import { Alert, Card } from '../components';
import type { InvitePreview } from '../types';

/** The token of an invite link's path (`/join/{token}`), or null for any other path. */
export function inviteTokenOf(path: string | null): string | null {
  return /^\/join\/([^/?#]+)$/.exec(path ?? '')?.[1] ?? null;
}

/**
 * What an invite link joins, asked without a session: undefined while asked (or when there
 * is no token), null when the link cannot be used, and the error of any other failure.
 */
export function useInvitePreview(token: string | null): { invite: InvitePreview | null | undefined; error: string | null } {
  const [invite, setInvite] = useState<InvitePreview | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (token === null) return;
    call('previewInvite', { body: { token } }).then(
      (answer) => setInvite(answer.invite),
      (caught: unknown) => (caught instanceof ApiError && caught.status === 404 ? setInvite(null) : setError(describeError(caught))),
    );
  }, [token]);
  return { invite, error };
}

export const unusableInvite = 'the link is unknown, expired, revoked or already used';

/** An invite link: the signed-in person joins the project with the invite's role. */
export function JoinPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const preview = useInvitePreview(token);
  const [error, setError] = useState<string | null>(null);
  const join = async () => {
    try {
      const { project } = await call('acceptInvite', { body: { token } });
      void navigate(`/projects/${project.id}`, { replace: true });
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const { invite } = preview;
  if (invite === null) {
    return (
      <Card title="Join a project">
        <Alert>This invite cannot be used: {unusableInvite}. Ask the person who invited you for a new link.</Alert>
      </Card>
    );
  }
  return (
    <Card title={invite ? `Join ${invite.projectName} as ${invite.role}` : 'Join a project'}>
      {(error ?? preview.error) && <Alert>This invite cannot be used: {error ?? preview.error}</Alert>}
      <p>You were invited to plan together in Gantry.</p>
      <button type="button" onClick={() => void join()}>
        Join the project
      </button>
    </Card>
  );
}
