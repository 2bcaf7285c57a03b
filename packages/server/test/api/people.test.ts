import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { eventData, expectStatus, fieldPaths, newTask, planningClient, uuid, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › People (assignees, comments); contract Assignee, Comment and
// routes.putAssignees (WriteResult plus `task`).
describe('people: assignees and comments', () => {
  let server: TestServer;
  let owner: User;
  let member: User;
  let outsider: User;
  let client: PlanningClient;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'owner@example.com');
    member = await provisionUser(server, 'member@example.com');
    outsider = await provisionUser(server, 'outsider@example.com');
    client = planningClient(server, owner.key);
    projectId = (await client.createProject({ name: 'People', key: 'PPL' })).id;
    const added = await server.cli('project', 'add-member', '--project', projectId, '--email', 'member@example.com', '--role', 'editor');
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(() => server.close());

  describe('PUT …/assignees', () => {
    it('assigns members; the answer is a WriteResult plus the task with its assignees', async () => {
      const task = await newTask(client, projectId, { name: 'Staffed' });
      const response = await client.putAssignees(projectId, task.id, { userIds: [member.userId, owner.userId] });
      expectStatus(response, 200);
      expect(response.body.stats.taskCount).toBeGreaterThanOrEqual(1);
      expect(response.body.task).toMatchObject({ id: task.id, projectId });
      expect(response.body.task.assignees.map((a) => a.userId).sort()).toEqual([member.userId, owner.userId].sort());
      for (const assignee of response.body.task.assignees) {
        expect(assignee).toMatchObject({ resourceId: expect.any(String), name: expect.any(String), unitsPct: 100 });
      }
      const read = await client.getTask(projectId, task.id);
      expect(read.body.task.assignees).toEqual(response.body.task.assignees);
      const listed = await client.listTasks(projectId, `q=staffed`);
      expect(listed.body.tasks[0]?.assignees).toEqual(response.body.task.assignees);

      // The same people again: nothing changes; the same resource stands for a person.
      const again = await client.putAssignees(projectId, task.id, { userIds: [owner.userId, member.userId, member.userId] });
      expectStatus(again, 200);
      expect(again.body.task.assignees.map((a) => a.resourceId).sort()).toEqual(response.body.task.assignees.map((a) => a.resourceId).sort());

      const cleared = await client.putAssignees(projectId, task.id, { userIds: [] });
      expectStatus(cleared, 200);
      expect(cleared.body.task.assignees).toEqual([]);
      expect((await client.getTask(projectId, task.id)).body.task.assignees).toEqual([]);
    });

    it('emits task.updated with the assignee change', async () => {
      const task = await newTask(client, projectId, { name: 'Announced' });
      const seen = (await storedEvents(server, projectId)).length;
      expectStatus(await client.putAssignees(projectId, task.id, { userIds: [member.userId] }), 200);
      const events = (await storedEvents(server, projectId)).slice(seen);
      const updated = events.filter((e) => e.type === 'task.updated');
      expect(updated).toHaveLength(1);
      expect(eventData(updated[0] as (typeof events)[number]).changes).toHaveProperty('assignees');
    });

    it('a non-member is 400 at userIds[i]; nothing changes', async () => {
      const task = await newTask(client, projectId, { name: 'Guarded' });
      expectStatus(await client.putAssignees(projectId, task.id, { userIds: [member.userId] }), 200);
      const response = await client.putAssignees(projectId, task.id, { userIds: [owner.userId, outsider.userId, uuid()] });
      expectStatus(response, 400);
      expect(fieldPaths(response.body)).toEqual(['userIds[1]', 'userIds[2]']);
      expect((await client.getTask(projectId, task.id)).body.task.assignees.map((a) => a.userId)).toEqual([member.userId]);
      expectStatus(await client.putAssignees(projectId, task.id, {}), 400);
      expectStatus(await client.putAssignees(projectId, task.id, { userIds: ['nope'] }), 400);
      expectStatus(await client.putAssignees(projectId, uuid(), { userIds: [] }), 404);
      const badResource = await client.putAssignees(projectId, task.id, { userIds: [], resourceIds: [uuid()] });
      expectStatus(badResource, 400);
      expect(fieldPaths(badResource.body)).toEqual(['resourceIds[0]']);
    });
  });

  describe('comments', () => {
    it('creates and lists comments (201 {comment}, 200 {comments})', async () => {
      const task = await newTask(client, projectId, { name: 'Discussed' });
      const first = await client.comment(projectId, task.id, { body: 'First!' });
      expectStatus(first, 201);
      expect(first.body.comment).toMatchObject({ taskId: task.id, userId: owner.userId, body: 'First!', mentions: [] });
      const memberClient = planningClient(server, member.key);
      const second = await memberClient.comment(projectId, task.id, { body: 'Second' });
      expectStatus(second, 201);
      const list = await client.listComments(projectId, task.id);
      expectStatus(list, 200);
      expect(list.body.comments.map((c) => c.body)).toEqual(['First!', 'Second']);
      expectStatus(await client.comment(projectId, task.id, { body: '   ' }), 400);
      expectStatus(await client.comment(projectId, task.id, {}), 400);
      expectStatus(await client.comment(projectId, uuid(), { body: 'x' }), 404);
      expectStatus(await client.listComments(projectId, uuid()), 404);
    });

    it('mentions of members queue one e-mail per person; a non-member mention is 400 and sends nothing', async () => {
      const task = await newTask(client, projectId, { name: 'Mentioned' });
      const mailBefore = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).length;
      const response = await client.comment(projectId, task.id, { body: 'Please review', mentions: [member.userId, owner.userId, member.userId] });
      expectStatus(response, 201);
      expect(response.body.comment.mentions.sort()).toEqual([member.userId, owner.userId].sort());
      const mail = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).slice(mailBefore);
      expect(mail.map((m) => m.to_address).sort()).toEqual(['member@example.com', 'owner@example.com']);
      for (const message of mail) expect(message.subject).toContain('PPL-');

      const comments = (await client.listComments(projectId, task.id)).body.comments.length;
      const refused = await client.comment(projectId, task.id, { body: 'Hey', mentions: [member.userId, outsider.userId] });
      expectStatus(refused, 400);
      expect(fieldPaths(refused.body)).toEqual(['mentions[1]']);
      expect((await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).length).toBe(mailBefore + 2);
      expect((await client.listComments(projectId, task.id)).body.comments.length).toBe(comments);
    });
  });

  it('a workspace member (access through the workspace) can be assigned and mentioned', async () => {
    const created = await server.cli('workspace', 'create', '--email', 'owner@example.com', '--name', 'Team', '--json');
    expect(created.code, created.stderr).toBe(0);
    const workspaceId = (created.json as { workspace: { id: string } }).workspace.id;
    const teammate = await provisionUser(server, 'teammate@example.com');
    expect((await server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'teammate@example.com', '--role', 'member')).code).toBe(0);
    const teamProject = await client.createProject({ name: 'Team plan', key: 'TEAM', workspaceId });
    const members = await server.request<{ members: { userId: string }[] }>('GET', `/api/projects/${teamProject.id}/members`, { key: owner.key });
    expect(members.body.members.map((m) => m.userId)).toContain(teammate.userId);
    const task = await newTask(client, teamProject.id, { name: 'Shared' });
    const assigned = await client.putAssignees(teamProject.id, task.id, { userIds: [teammate.userId] });
    expectStatus(assigned, 200);
    expect(assigned.body.task.assignees.map((a) => a.userId)).toEqual([teammate.userId]);
    const mailBefore = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).length;
    expectStatus(await client.comment(teamProject.id, task.id, { body: 'ping', mentions: [teammate.userId] }), 201);
    const mail = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).slice(mailBefore);
    expect(mail.map((m) => m.to_address)).toEqual(['teammate@example.com']);
    // The member of the personal-workspace project is not a member here.
    const refused = await client.putAssignees(teamProject.id, task.id, { userIds: [member.userId] });
    expectStatus(refused, 400);
    expect(fieldPaths(refused.body)).toEqual(['userIds[0]']);
  });

  it('members show the resource they are assigned through, and were added no earlier than the project', async () => {
    const project = await client.createProject({ name: 'Staffing', key: 'STF' });
    await server.cli('project', 'add-member', '--project', project.id, '--email', 'member@example.com', '--role', 'viewer');
    type Member = { userId: string; resourceId: string | null; addedAt: string };
    const members = async () => (await server.request<{ members: Member[] }>('GET', `/api/projects/${project.id}/members`, { key: owner.key })).body.members;
    expect((await members()).map((m) => m.resourceId)).toEqual([null, null]);
    const task = await newTask(client, project.id, { name: 'Staffed' });
    const assigned = await client.putAssignees(project.id, task.id, { userIds: [owner.userId, member.userId] });
    expectStatus(assigned, 200);
    const byUser = new Map(assigned.body.task.assignees.map((a) => [a.userId, a.resourceId]));
    const createdAt = (await server.request<{ project: { createdAt: string } }>('GET', `/api/projects/${project.id}`, { key: owner.key })).body.project.createdAt;
    for (const m of await members()) {
      expect(m.resourceId).toBe(byUser.get(m.userId));
      expect(m.addedAt >= createdAt).toBe(true);
    }
  });
});

