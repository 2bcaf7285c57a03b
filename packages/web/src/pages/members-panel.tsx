import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, call, describeError } from '../client';
import { Alert, Field, SidePanel } from '../components';
import { formatDate } from '../format';
import type { Invite, Member, ProjectRole } from '../types';

const roleLabels: Record<ProjectRole, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

/** Who is in the project, and (for owners) invite links: created, shown once, revoked. */
export function MembersPanel({ projectId, members, isOwner, onChanged, onClose }: { projectId: string; members: readonly Member[]; isOwner: boolean; onChanged(): Promise<void>; onClose(): void }) {
  const [invites, setInvites] = useState<Invite[]>([]);
  const [role, setRole] = useState<ProjectRole>('editor');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<{ url: string; email: string | null } | null>(null);
  const [error, setError] = useState<ApiError | string | null>(null);

  const load = useCallback(async () => {
    if (!isOwner) return;
    try {
      setInvites((await call('listInvites', { params: { projectId } })).invites);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [projectId, isOwner]);
  useEffect(() => void load(), [load]);

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await call('createInvite', { params: { projectId }, body: { role, email: email === '' ? null : email } });
      setCreated(answer.invite);
      setEmail('');
      await load();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : describeError(caught));
    }
  };
  /** A new direct role, or null to take it away (workspace access stays). */
  const change = async (member: Member, role: ProjectRole | null) => {
    setError(null);
    try {
      const params = { projectId, userId: member.userId };
      if (role) await call('setMemberRole', { params, body: { role } });
      else await call('removeMemberRole', { params });
      await onChanged();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const revoke = async (item: Invite) => {
    try {
      await call('revokeInvite', { params: { projectId, inviteId: item.id } });
      await load();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <SidePanel title="Members" closeLabel="Close the members" onClose={onClose}>
      {typeof error === 'string' && <Alert>{error}</Alert>}
      {error instanceof ApiError && error.fields.length === 0 && <Alert>{error.message}</Alert>}
      <ul className="members">
        {members.map((member) => (
          <li key={member.userId}>
            <strong>{member.name}</strong> <span className="muted">{member.email}</span>
            {isOwner ? (
              <span className="member-role">
                <select aria-label={`Role of ${member.name}`} value={member.directRole ?? ''} onChange={(event) => void change(member, event.target.value as ProjectRole)}>
                  {member.directRole === null && <option value="">{roleLabels[member.role]} (from the workspace)</option>}
                  {Object.entries(roleLabels).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
                {member.directRole !== null && (
                  <button type="button" className="link danger" onClick={() => void change(member, null)}>
                    Remove
                  </button>
                )}
              </span>
            ) : (
              <>
                {' '}
                · {roleLabels[member.role]}
                {member.inherited && <span className="muted"> (from the workspace)</span>}
              </>
            )}
          </li>
        ))}
      </ul>
      {isOwner && (
        <>
          <h3>Invite</h3>
          <form onSubmit={invite}>
            <div className="field">
              <label htmlFor="invite-role">Invite as</label>
              <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as ProjectRole)}>
                {Object.entries(roleLabels).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <Field label="Only for this e-mail (optional)" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error instanceof ApiError ? error.field('email') : undefined} />
            <button type="submit">Create invite link</button>
          </form>
          {created && (
            <Alert kind="info">
              {created.email ? `The link was e-mailed to ${created.email}; you may also send it yourself` : 'Send this link'} (shown only now): <code className="secret">{created.url}</code>
            </Alert>
          )}
          {invites.length > 0 && (
            <>
              <h3>Open invites</h3>
              <ul>
                {invites.map((item) => (
                  <li key={item.id}>
                    {roleLabels[item.role]} · {item.email ?? 'anyone with the link'} · until {formatDate(item.expiresAt)}{' '}
                    <button type="button" className="link danger" onClick={() => void revoke(item)}>
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </SidePanel>
  );
}
