import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { Locale } from '@gantry/contract/limits';
import { ApiError, call, describeError } from '../client';
import { Alert, Field, TableHead } from '../components';
import { formatDateTime, knownLocale, localeNames } from '../format';
import { useSession } from '../session';
import type { ApiKey, Delivery, OAuthGrant, Webhook, WebSession } from '../types';

/**
 * Loads a list once and on demand, keeping the error for the section to show. `load` keeps
 * its identity between renders (a function of the module, or `useCallback`'s).
 */
function useList<T>(load: () => Promise<T[]>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setItems(await load());
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [load]);
  useEffect(() => void reload(), [reload]);
  return { items, error, setError, reload };
}

const loadApiKeys = async () => (await call('listApiKeys')).apiKeys;
const loadWorkspaces = async () => (await call('listWorkspaces')).workspaces;
const loadWebhooks = async () => (await call('listWebhooks')).webhooks;
const loadGrants = async () => (await call('listOAuthGrants')).grants;
const loadSessions = async () => (await call('listSessions')).sessions;

function ProfileSection() {
  const { user, replaceUser } = useSession();
  const [name, setName] = useState(user?.name ?? '');
  const [avatarUrl, setAvatarUrl] = useState(user?.avatarUrl ?? '');
  const [locale, setLocale] = useState<Locale>(knownLocale(user?.locale) ?? 'en');
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const answer = await call('updateMe', { body: { name, avatarUrl: avatarUrl === '' ? null : avatarUrl, locale } });
      replaceUser(answer.user);
      setSaved(true);
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught);
    }
  };
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <form onSubmit={save} className="settings-form">
        {saved && <Alert kind="info">Saved.</Alert>}
        {error && error.fields.length === 0 && <Alert>{error.message}</Alert>}
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} error={error?.field('name')} />
        <Field label="Avatar (https address of a picture)" type="url" value={avatarUrl} onChange={(e) => setAvatarUrl(e.target.value)} error={error?.field('avatarUrl')} />
        <div className="field">
          <label htmlFor="profile-locale">Language</label>
          <select id="profile-locale" value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
            {localeNames().map(({ locale: tag, name: label }) => (
              <option key={tag} value={tag}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Save profile</button>
      </form>
    </section>
  );
}

/** A row's one action (a danger link), or what stands in its place where it no longer applies. */
function RowAction({ instead, label, onClick }: { instead: ReactNode; label: string; onClick(): void }) {
  return (
    <td className="row-actions">
      {instead ?? (
        <button type="button" className="link danger" onClick={onClick}>
          {label}
        </button>
      )}
    </td>
  );
}

function ApiKeysSection() {
  const keys = useList(loadApiKeys);
  const workspaces = useList(loadWorkspaces);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'read' | 'write'>('read');
  const [workspaceId, setWorkspaceId] = useState('');
  const [expires, setExpires] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await call('createApiKey', { body: { name: name || undefined, scope, workspaceId: workspaceId || undefined, expiresAt: expires ? `${expires}T00:00:00Z` : undefined } });
      setShown(answer.key);
      setName('');
      await keys.reload();
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught);
    }
  };
  const revoke = async (key: ApiKey) => {
    try {
      await call('revokeApiKey', { params: { keyId: key.id } });
      await keys.reload();
    } catch (caught) {
      keys.setError(describeError(caught));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">A key acts as you, never more, narrowed by its scope, workspace and expiry. It can read and change plans, never delete them.</p>
      {keys.error && <Alert>{keys.error}</Alert>}
      {shown && (
        <Alert kind="info">
          Your new key, shown only now: <code className="secret">{shown}</code>
        </Alert>
      )}
      <form onSubmit={create} className="inline-form" aria-label="New API key">
        <Field label="Key name" value={name} onChange={(e) => setName(e.target.value)} error={error?.field('name')} />
        <div className="field">
          <label htmlFor="key-scope">Scope</label>
          <select id="key-scope" value={scope} onChange={(e) => setScope(e.target.value as 'read' | 'write')}>
            <option value="read">Read</option>
            <option value="write">Read and write</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-workspace">Workspace</label>
          <select id="key-workspace" value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)}>
            <option value="">All of mine</option>
            {(workspaces.items ?? []).map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </div>
        <Field label="Expires" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} error={error?.field('expiresAt')} />
        <button type="submit">Create key</button>
      </form>
      {error && error.fields.length === 0 && <Alert>{error.message}</Alert>}
      <table className="list">
        <TableHead columns={['Name', 'Key', 'Scope', 'Created', 'Last used', 'Expires']} />
        <tbody>
          {(keys.items ?? []).map((key) => (
            <tr key={key.id} className={key.revokedAt ? 'archived' : undefined}>
              <td>{key.name ?? '—'}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.scope}</td>
              <td>{formatDateTime(key.createdAt)}</td>
              <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never'}</td>
              <td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'never'}</td>
              <RowAction instead={key.revokedAt ? <span className="badge">revoked</span> : null} label="Revoke" onClick={() => void revoke(key)} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const deliveries = useList(useCallback(async () => (await call('listDeliveries', { params: { webhookId: webhook.id }, query: { limit: 20 } })).deliveries, [webhook.id]));
  const resend = async (delivery: Delivery) => {
    try {
      await call('resendDelivery', { params: { webhookId: webhook.id, deliveryId: delivery.id } });
      await deliveries.reload();
    } catch (caught) {
      deliveries.setError(describeError(caught));
    }
  };
  if (deliveries.error) return <Alert>{deliveries.error}</Alert>;
  if (!deliveries.items) return <p className="loading">Loading…</p>;
  if (deliveries.items.length === 0) return <p className="muted">Nothing delivered yet.</p>;
  return (
    <ul className="deliveries">
      {deliveries.items.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id}>
            <details>
              <summary>
                <span className={`badge status-${delivery.status}`}>{delivery.status}</span> {delivery.eventType} · {formatDateTime(delivery.createdAt)} · {delivery.attemptCount} attempt(s)
                {last && ` · last answer ${last.httpStatus ?? last.error ?? '—'}`}
              </summary>
              <h4>Payload</h4>
              <pre>{JSON.stringify(delivery.payload, null, 2)}</pre>
              {delivery.attempts.map((attempt) => (
                <p key={attempt.attempt} className="muted">
                  Attempt {attempt.attempt} at {formatDateTime(attempt.at)}: {attempt.ok ? 'ok' : 'failed'} {attempt.httpStatus ?? ''} {attempt.error ?? ''} ({attempt.durationMs} ms)
                  {attempt.responseExcerpt && <code className="excerpt">{attempt.responseExcerpt}</code>}
                </p>
              ))}
              <button type="button" className="secondary" onClick={() => void resend(delivery)}>
                Resend
              </button>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

function WebhooksSection() {
  const webhooks = useList(loadWebhooks);
  const [open, setOpen] = useState<string | null>(null);
  const enable = async (webhook: Webhook) => {
    try {
      await call('enableWebhook', { params: { webhookId: webhook.id } });
      await webhooks.reload();
    } catch (caught) {
      webhooks.setError(describeError(caught));
    }
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      {webhooks.error && <Alert>{webhooks.error}</Alert>}
      {webhooks.items?.length === 0 && <p className="muted">No webhooks: subscribe one through the API (POST /api/webhooks).</p>}
      <ul className="webhooks">
        {(webhooks.items ?? []).map((webhook) => (
          <li key={webhook.id}>
            <div className="webhook-head">
              <strong>{webhook.name ?? webhook.url}</strong> <span className="muted">{webhook.url}</span>{' '}
              <span className={`badge status-${webhook.status}`}>{webhook.status}</span>
              {webhook.status === 'disabled' && (
                <>
                  <span className="muted">
                    {' '}
                    since {formatDateTime(webhook.disabledAt)} ({webhook.disabledReason === 'gone' ? 'the receiver answered 410 Gone' : 'five events in a row failed'})
                  </span>
                  <button type="button" onClick={() => void enable(webhook)}>
                    Turn on again
                  </button>
                </>
              )}
              <button type="button" className="link" aria-expanded={open === webhook.id} onClick={() => setOpen(open === webhook.id ? null : webhook.id)}>
                {open === webhook.id ? 'Hide deliveries' : 'Deliveries'}
              </button>
            </div>
            {open === webhook.id && <DeliveryLog webhook={webhook} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ConnectedAppsSection() {
  const grants = useList(loadGrants);
  const revoke = async (grant: OAuthGrant) => {
    try {
      await call('revokeOAuthGrant', { params: { grantId: grant.id } });
      await grants.reload();
    } catch (caught) {
      grants.setError(describeError(caught));
    }
  };
  return (
    <section aria-labelledby="apps-title">
      <h2 id="apps-title">Connected apps</h2>
      {grants.error && <Alert>{grants.error}</Alert>}
      {grants.items?.length === 0 && <p className="muted">No app acts for you.</p>}
      <ul>
        {(grants.items ?? []).map((grant) => (
          <li key={grant.id}>
            <strong>{grant.clientName}</strong> <span className="muted">{grant.scopes.join(', ')} · since {formatDateTime(grant.createdAt)}</span>{' '}
            <button type="button" className="link danger" onClick={() => void revoke(grant)}>
              Disconnect
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The browsers where the person is signed in: any other can be signed out from here (a lost laptop, a shared computer). */
function SessionsSection() {
  const sessions = useList(loadSessions);
  const end = async (session: WebSession) => {
    try {
      await call('endSessionById', { params: { sessionId: session.id } });
      await sessions.reload();
    } catch (caught) {
      sessions.setError(describeError(caught));
    }
  };
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in browsers</h2>
      {sessions.error && <Alert>{sessions.error}</Alert>}
      <table className="list">
        <TableHead columns={['Browser', 'Signed in', 'Last used', '']} />
        <tbody>
          {(sessions.items ?? []).map((session) => (
            <tr key={session.id}>
              <td className="user-agent">{session.userAgent ?? 'Unknown browser'}</td>
              <td>{formatDateTime(session.createdAt)}</td>
              <td>{formatDateTime(session.lastSeenAt)}</td>
              <RowAction instead={session.current ? <span className="muted">This browser</span> : null} label="Sign out" onClick={() => void end(session)} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The person's profile, keys, webhooks, connected apps and signed-in browsers. */
export function SettingsPage() {
  return (
    <main className="page settings">
      <h1>Settings</h1>
      <ProfileSection />
      <ApiKeysSection />
      <WebhooksSection />
      <ConnectedAppsSection />
      <SessionsSection />
    </main>
  );
}
