import { createHash } from 'node:crypto';
import type { EventEnvelopeOf } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import type { AppError } from '../../src/domain/errors.js';
import { presentEvent } from '../../src/domain/events.js';
import { addProjectMember } from '../../src/domain/members.js';
import { perform } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import { storedEvents } from '../support/event-check.js';
import { fieldPaths, planningClient, type ErrorBody, type PlanningClient } from '../support/planning.js';
import { sessionActor } from '../support/session-actor.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

type Invite = { id: string; role: string; email: string | null; expiresAt: string; createdAt: string; createdBy: string };
type Member = { userId: string; role: string; directRole: string | null };
const dayMs = 24 * 60 * 60 * 1000;

// docs/api.md › Invites and joining: owners make invite links (keys, apps and the web app
// alike); a signed-in person joins with one. Joining takes the person's session: here it
// runs through `perform` with a session credential (over HTTP: api/person-routes.test.ts).
describe('project invites', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let editor: Awaited<ReturnType<typeof provisionUser>>;
  let rest: PlanningClient;
  let ctx: DomainContext;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'inviter@example.com');
    editor = await provisionUser(server, 'helper@example.com');
    for (const email of ['joiner@example.com', 'other@example.com', 'third@example.com']) await provisionUser(server, email);
    rest = planningClient(server, owner.key);
    ctx = { store: server.store, clock: server.clock, baseUrl: server.config.baseUrl };
    projectId = (await rest.createProject({ name: 'Invited', key: 'INV' })).id;
    await addProjectMember(ctx, { projectId, email: 'helper@example.com', role: 'editor' });
  });
  afterAll(() => server.close());

  const invite = (body: Record<string, unknown>, key = owner.key) =>
    server.request<{ invite: Invite & { url: string } } & ErrorBody>('POST', `/api/projects/${projectId}/invites`, { key, body });
  const listed = async () => (await server.request<{ invites: Invite[] }>('GET', `/api/projects/${projectId}/invites`, { key: owner.key })).body.invites;
  const tokenOf = (url: string) => url.split('/join/')[1] as string;
  const as = (email: string) => sessionActor(ctx, email);
  const accept = async (actor: Actor, token: string) => (await perform(ctx, actor, operations.acceptInvite, { body: { token } })).body as { project: { id: string }; member: Member };
  const refused = (actor: Actor, token: string) => accept(actor, token).then(() => expect.fail('expected a refusal'), (error: unknown) => error as AppError);
  const members = async () => (await server.request<{ members: (Member & { email: string })[] }>('GET', `/api/projects/${projectId}/members`, { key: owner.key })).body.members;
  const eventsOf = async <Type extends 'member.invited' | 'member.joined'>(type: Type) =>
    (await storedEvents(server, projectId)).map(presentEvent).filter((event): event is EventEnvelopeOf<Type> => event.type === type);

  it('gives owners a link, shown once and stored only as a digest, and announces member.invited without it', async () => {
    const created = await invite({ role: 'editor', email: 'Joiner@Example.com' });
    expect(created.status).toBe(201);
    const { url, ...shown } = created.body.invite;
    expect(url).toMatch(new RegExp(`^${server.config.baseUrl}/join/[A-Za-z0-9_-]{43}$`));
    expect(shown).toMatchObject({ role: 'editor', email: 'joiner@example.com', createdBy: owner.userId });
    expect(Date.parse(shown.expiresAt) - Date.parse(shown.createdAt)).toBe(7 * dayMs);

    const token = tokenOf(url);
    const row = await server.store.q.projects.findInvite(projectId, shown.id);
    expect(row?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    const announced = (await eventsOf('member.invited')).find((event) => event.data.invitation.id === shown.id);
    expect(announced?.data).toEqual({ invitation: { id: shown.id, email: 'joiner@example.com', role: 'editor', expiresAt: shown.expiresAt } });
    expect(JSON.stringify(announced)).not.toContain(token);

    const link = await invite({ role: 'viewer', expiresInDays: 30 });
    expect(link.body.invite).toMatchObject({ email: null, role: 'viewer' });
    expect(Date.parse(link.body.invite.expiresAt) - Date.parse(link.body.invite.createdAt)).toBe(30 * dayMs);
    const list = await listed();
    expect(list.slice(0, 2).map((i) => i.id)).toEqual([link.body.invite.id, shown.id]);
    expect(list.every((i) => !('url' in i))).toBe(true);
  });

  it('mails the link to the address an invite names, naming the project and the inviter; an invite without one mails nobody', async () => {
    const outbox = async () => server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 });
    const before = (await outbox()).length;
    const { url } = (await invite({ role: 'viewer', email: 'Mailed@Example.com' })).body.invite;
    const mailed = (await outbox()).slice(before);
    expect(mailed.map((mail) => [mail.to_address, mail.subject])).toEqual([['mailed@example.com', 'inviter invited you to Invited on Gantry']]);
    expect(mailed[0]?.body).toContain(`\n${url}\n`);
    expect(mailed[0]?.body).toMatch(/as viewer/);
    await invite({ role: 'viewer' });
    expect((await outbox()).length).toBe(before + 1);
  });

  it('tells whoever holds a link, without a session, what it joins; an unknown, revoked, expired or used link is the same 404', async () => {
    const preview = (token: string) => server.request<{ invite: { projectName: string; role: string; expiresAt: string } } & ErrorBody>('POST', '/api/invites/preview', { body: { token } });
    const open = (await invite({ role: 'editor', expiresInDays: 2 })).body.invite;
    expect((await preview(tokenOf(open.url))).body).toEqual({ invite: { projectName: 'Invited', role: 'editor', expiresAt: open.expiresAt } });

    const revoked = (await invite({ role: 'viewer' })).body.invite;
    await server.request('POST', `/api/projects/${projectId}/invites/${revoked.id}/revoke`, { key: owner.key });
    const used = (await invite({ role: 'viewer', email: 'third@example.com' })).body.invite;
    await accept(await as('third@example.com'), tokenOf(used.url));
    const gone = await Promise.all([tokenOf(revoked.url), tokenOf(used.url), 'no-such-token'].map(preview));
    server.clock.advance(2 * dayMs + 60_000);
    gone.push(await preview(tokenOf(open.url)));
    for (const answer of gone) expect(answer).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(new Set(gone.map((answer) => answer.body.message)).size).toBe(1);
    expect((await preview('')).status).toBe(400);
  });

  it('refuses bad input with every field named, and anyone but an owner; nothing is written', async () => {
    const before = (await storedEvents(server, projectId)).length;
    const bad = await invite({ role: 'boss', email: 'not an address', expiresInDays: 31 });
    expect(bad.status).toBe(400);
    expect(fieldPaths(bad.body).sort()).toEqual(['email', 'expiresInDays', 'role']);
    for (const expiresInDays of [0, 1.5, '7']) expect(fieldPaths((await invite({ role: 'viewer', expiresInDays })).body)).toEqual(['expiresInDays']);
    expect((await invite({ role: 'viewer' }, editor.key)).body).toMatchObject({ error: 'forbidden', details: { reason: 'insufficient_role' } });
    expect((await server.request('GET', `/api/projects/${projectId}/invites`, { key: editor.key })).status).toBe(403);
    const readKey = (await server.cli('key', 'create', '--email', 'inviter@example.com', '--scope', 'read', '--json')).json?.key as string;
    expect((await invite({ role: 'viewer' }, readKey)).body).toMatchObject({ error: 'forbidden', details: { reason: 'insufficient_scope' } });
    const stranger = await provisionUser(server, 'stranger@example.com');
    expect((await invite({ role: 'viewer' }, stranger.key)).status).toBe(404);
    expect((await storedEvents(server, projectId)).length).toBe(before);
  });

  it('lets only the invited person join with an e-mail invite, once: the role, member.joined', async () => {
    const { url, id } = (await invite({ role: 'editor', email: 'joiner@example.com' })).body.invite;
    const token = tokenOf(url);
    // Joining takes the person's session: a key is not accepted.
    expect((await server.request('POST', '/api/invites/accept', { key: owner.key, body: { token } })).status).toBe(401);
    expect(await refused(await as('other@example.com'), token)).toMatchObject({ code: 'forbidden', details: { reason: 'invite_for_another_email' } });

    const joiner = await as('joiner@example.com');
    const joined = await accept(joiner, token);
    expect(joined.project.id).toBe(projectId);
    expect(joined.member).toMatchObject({ userId: joiner.userId, role: 'editor', directRole: 'editor' });
    expect((await members()).find((m) => m.userId === joiner.userId)).toMatchObject({ role: 'editor', directRole: 'editor' });
    const announced = (await eventsOf('member.joined')).filter((event) => event.data.member.userId === joiner.userId);
    expect(announced.map((event) => [event.data.member.role, event.actor.id])).toEqual([['editor', joiner.userId]]);
    // Single use: gone from the list, and a second use is 404.
    expect((await listed()).map((i) => i.id)).not.toContain(id);
    expect(await refused(joiner, token)).toMatchObject({ code: 'not_found' });
  });

  it('lets anyone with a link join until it expires, keeping a higher role they have', async () => {
    const { url, id } = (await invite({ role: 'viewer', expiresInDays: 1 })).body.invite;
    const token = tokenOf(url);
    for (const email of ['other@example.com', 'third@example.com']) {
      expect((await accept(await as(email), token)).member).toMatchObject({ role: 'viewer', directRole: 'viewer' });
    }
    const joinedBefore = (await eventsOf('member.joined')).length;
    // The joiner is an editor already: the link changes nothing, and nobody joined.
    const joiner = await as('joiner@example.com');
    expect((await accept(joiner, token)).member).toMatchObject({ role: 'editor', directRole: 'editor' });
    expect((await eventsOf('member.joined')).length).toBe(joinedBefore);

    server.clock.advance(dayMs + 60_000);
    expect(await refused(joiner, token)).toMatchObject({ code: 'not_found' });
    expect((await listed()).map((i) => i.id)).not.toContain(id);
  });

  it('stops a revoked link at once; unknown tokens are 404, an empty one 400', async () => {
    const { url, id } = (await invite({ role: 'owner' })).body.invite;
    const revoked = await server.request('POST', `/api/projects/${projectId}/invites/${id}/revoke`, { key: owner.key });
    expect(revoked).toMatchObject({ status: 200, body: { id, revoked: true } });
    expect((await server.request('POST', `/api/projects/${projectId}/invites/${id}/revoke`, { key: owner.key })).status).toBe(200);
    expect((await server.request('POST', `/api/projects/${projectId}/invites/${id}/revoke`, { key: editor.key })).status).toBe(403);
    expect((await server.request('POST', `/api/projects/${projectId}/invites/${crypto.randomUUID()}/revoke`, { key: owner.key })).status).toBe(404);
    expect((await listed()).map((i) => i.id)).not.toContain(id);
    const third = await as('third@example.com');
    expect(await refused(third, tokenOf(url))).toMatchObject({ code: 'not_found' });
    expect(await refused(third, 'no-such-token')).toMatchObject({ code: 'not_found' });
    expect(await refused(third, '')).toMatchObject({ code: 'invalid_request', details: { fields: [{ path: 'token' }] } });
  });

  it('grants the owner role an invite names, and nothing once the project is deleted', async () => {
    const { url } = (await invite({ role: 'owner', email: 'third@example.com' })).body.invite;
    const other = await rest.createProject({ name: 'Doomed', key: 'DOOM' });
    const doomed = (await server.request<{ invite: { url: string } }>('POST', `/api/projects/${other.id}/invites`, { key: owner.key, body: { role: 'viewer' } })).body.invite.url;
    await perform(ctx, await as('inviter@example.com'), operations.deleteProject, { params: { projectId: other.id }, query: { confirm: 'DOOM' } });
    const third = await as('third@example.com');
    expect(await refused(third, tokenOf(doomed))).toMatchObject({ code: 'not_found' });
    expect((await accept(third, tokenOf(url))).member).toMatchObject({ role: 'owner', directRole: 'owner' });
  });
});
