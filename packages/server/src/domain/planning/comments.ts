import { randomUUID } from 'node:crypto';
import type { Comment } from '@gantry/contract';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { queueMail } from '../mail.js';
import { appendEvents } from '../outbox.js';
import { nonMemberProblems, projectMembers } from '../members.js';
import { requireProject } from '../permissions.js';
import { displayName } from '../users.js';
import { taskUrl } from './presenters.js';

type CommentWithAuthor = Awaited<ReturnType<DomainContext['store']['q']['people']['listComments']>>[number];

function presentComment(row: CommentWithAuthor): Comment {
  return {
    id: row.id,
    taskId: row.task_id,
    userId: row.user_id,
    authorName: displayName({ name: row.author_name, email: row.author_email }),
    authorAvatarUrl: row.author_avatar_url,
    body: row.body,
    mentions: JSON.parse(row.mentions) as string[],
    createdAt: row.created_at,
    editedAt: row.edited_at,
  };
}

async function requireTaskIn(ctx: DomainContext, actor: Actor, projectId: string, taskId: string, needed: 'viewer' | 'editor') {
  const access = await requireProject(ctx, actor, projectId, needed);
  const task = await ctx.store.q.tasks.findById(projectId, taskId);
  if (!task) throw notFound('task');
  return { ...access, task };
}

export async function listComments(ctx: DomainContext, actor: Actor, projectId: string, taskId: string): Promise<Comment[]> {
  await requireTaskIn(ctx, actor, projectId, taskId, 'viewer');
  return (await ctx.store.q.people.listComments(taskId)).map(presentComment);
}

/**
 * Adds a plain-text comment (editors and owners). Every mentioned person must be a
 * project member and is e-mailed; emits `comment.created`.
 */
export async function createComment(ctx: DomainContext, actor: Actor, projectId: string, taskId: string, input: { body: string; mentions: string[] }): Promise<Comment> {
  const { project, task } = await requireTaskIn(ctx, actor, projectId, taskId, 'editor');
  const mentions = [...new Set(input.mentions)];
  const people = await projectMembers(ctx, project);
  const problems = nonMemberProblems(people, input.mentions, 'mentions');
  if (problems.length > 0) throw invalid(problems);

  const now = nowIso(ctx);
  const row = { id: randomUUID(), project_id: projectId, task_id: taskId, user_id: actor.userId, body: input.body, mentions: JSON.stringify(mentions), created_at: now, edited_at: null };
  return ctx.store.transaction(async (tx) => {
    await tx.people.insertComment(row);
    const link = taskUrl(ctx.baseUrl, projectId, taskId);
    await queueMail(
      tx,
      now,
      mentions.map((userId) => ({
        to: people.get(userId)?.email as string,
        subject: `${actor.name} mentioned you on ${project.key}-${task.number} ${task.name}`,
        text: `${actor.name} wrote on ${project.key}-${task.number} "${task.name}" (${project.name}):\n\n${input.body}\n\n${link}\n`,
      })),
    );
    const author = await tx.users.findById(actor.userId);
    const comment = presentComment({
      ...row,
      author_name: author?.name ?? null,
      author_email: author?.email ?? actor.name,
      author_avatar_url: author?.avatar_url ?? null,
    });
    await appendEvents(tx, actor, now, [{ type: 'comment.created', workspaceId: project.workspace_id, projectId, data: { comment, taskId } }]);
    return comment;
  });
}
