import { z } from 'zod';
import { DateTime, Uuid } from './common.js';
import { API_VERSION } from './limits.js';
import { Member, ProjectRole } from './resources/members.js';
import { Project, ProjectChanges } from './resources/projects.js';
import { Baseline, Comment, Dependency, Task, TaskChanges } from './resources/tasks.js';

/** One event type: what triggers it (as the catalog lists it) and the schema of its `data`. */
interface EventDefinition {
  description: string;
  data: z.ZodObject;
}

const taskData = z.object({ task: Task });
const dependencyData = z.object({ dependency: Dependency });

/**
 * Every event of the catalog a change emits (docs/api.md › Events), with the schema of its
 * `data`: the one source of the catalog, the types `*` stands for, the envelopes and the
 * OpenAPI `webhooks`. Resources are carried in their read shape, under their own name.
 */
const changeEvents = {
  'project.created': {
    description: 'A project is created: blank, from a template, duplicated or imported (`data.source`).',
    data: z.object({
      project: Project,
      source: z
        .enum(['blank', 'template', 'duplicate', 'import'])
        .describe('How: `blank` (POST /api/projects), from a `template`, a `duplicate` of another project, or an `import` of a file.'),
    }),
  },
  'project.updated': {
    description: 'Project fields change, or a saved version is restored (`data.changes`, `data.reason`).',
    data: z.object({
      project: Project,
      changes: ProjectChanges,
      reason: z.enum(['edit', 'restore']).describe('`edit`: fields were changed; `restore`: a saved version was restored.'),
    }),
  },
  'project.deleted': {
    description: 'A project is deleted (in the web app).',
    data: z.object({ project: Project }).describe('The project as it was when it was deleted.'),
  },
  'task.created': {
    description: 'A task is created (`data.task`).',
    data: taskData,
  },
  'task.updated': {
    description: 'Task fields or assignees change (`data.changes` holds only what changed, as `{field: {from, to}}`).',
    data: z.object({ task: Task, changes: TaskChanges }),
  },
  'task.deleted': {
    description: 'A task is deleted; one event per task when a branch is deleted.',
    data: z.object({ task: Task }).describe('The task as it was when it was deleted.'),
  },
  'task.completed': {
    description: 'Task progress reaches 100% (`data.task`).',
    data: taskData,
  },
  'task.dates_changed': {
    description:
      "A task's start or finish moves: by an edit of the task (`data.cause` = `edit`) or by recalculation (`reschedule`); `data.previous` holds the old dates.",
    data: z.object({
      task: Task,
      cause: z.enum(['edit', 'reschedule']).describe('`edit` when an edit of the task itself can move it (duration, constraint, placement, progress, …), `reschedule` when recalculation moved it (also when the same write only renamed it).'),
      previous: Task.pick({ startAt: true, finishAt: true }).describe('The dates before the move.'),
    }),
  },
  'dependency.created': {
    description: 'A dependency is created, or its type/lag changes (`data.dependency`).',
    data: dependencyData,
  },
  'dependency.deleted': {
    description: 'A dependency is removed (`data.dependency`).',
    data: dependencyData,
  },
  'baseline.saved': {
    description: 'A baseline is saved, manually or automatically at the first progress (`data.baseline`, `data.automatic`).',
    data: z.object({
      baseline: Baseline,
      automatic: z.boolean().describe('Saved by the first progress on a project without a baseline (the plan as it was just before).'),
    }),
  },
  'member.invited': {
    description: 'An invite link is created for the project.',
    data: z.object({
      invitation: z
        .object({
          id: Uuid,
          email: z.string().nullable().describe('Who was invited; null for a link anyone may use.'),
          role: ProjectRole.describe('The role the invitation grants.'),
          expiresAt: DateTime.nullable(),
        })
        .describe('The invitation, never its link: the link itself is a secret.'),
    }),
  },
  'member.joined': {
    description: 'A person joins the project (`data.member`).',
    data: z.object({
      member: Member.pick({ userId: true, name: true, email: true }).extend({ role: ProjectRole.describe('The role granted on the project itself.') }),
    }),
  },
  'comment.created': {
    description: 'A comment is added to a task (`data.comment`, `data.taskId`).',
    data: z.object({ comment: Comment, taskId: Uuid }),
  },
} satisfies Record<string, EventDefinition>;

/** A task as `schedule.critical_path_changed` names it. */
const criticalPathTask = z.object({ taskId: Uuid, key: z.string().describe('`<projectKey>-<number>`'), name: z.string() });

/** An opt-in event's description, which first says how one subscribes to it. */
const optIn = (description: string) => `Opt-in: delivered only to webhooks whose \`events\` name this type (\`*\` does not include it). ${description}`;

/**
 * Opt-in events (docs/api.md › Events › Opt-in schedule events): what a write did to the
 * schedule as a whole. `*` stands for the catalog above and never grows with these, so a
 * webhook subscribed before they existed receives exactly what it did; they are listed
 * apart (`optInEvents` of the catalog) and delivered only to webhooks that name them.
 */
const optInEvents = {
  'schedule.critical_path_changed': {
    description: optIn('Tasks entered or left the critical path as a result of a write, whatever made it (`data.entered`, `data.left`); one event per write. Tasks and milestones only: a summary is critical when one of its subtasks is.'),
    data: z.object({
      entered: z.array(criticalPathTask).describe('Tasks critical after the write and not before it (a new critical task too), by task number.'),
      left: z.array(criticalPathTask).describe('Tasks critical before the write and no longer (a deleted one too, as it was), by task number.'),
    }),
  },
  'schedule.finish_changed': {
    description: optIn('The project finish moved as a result of a write, whatever made it (`data.from`, `data.to`); one event per write.'),
    data: z.object({
      from: DateTime.nullable().describe('The project finish before the write; null when the plan had no task.'),
      to: DateTime.nullable().describe('The project finish after the write; null when the plan has no task left.'),
    }),
  },
} satisfies Record<string, EventDefinition>;

/** The test event a webhook can be sent on request; never emitted by changes. */
export const PING_EVENT = 'webhook.ping';

const pingEvent = {
  [PING_EVENT]: {
    description: 'The test event, sent on request (POST /api/webhooks/{id}/ping) to any webhook; data: message and webhook {id, name, events}. Not subscribable.',
    data: z.object({
      message: z.string(),
      webhook: z.object({ id: Uuid, name: z.string().nullable(), events: z.array(z.string()) }).describe('The webhook pinged.'),
    }),
  },
} satisfies Record<string, EventDefinition>;

const eventDefinitions = { ...changeEvents, ...pingEvent, ...optInEvents } satisfies Record<string, EventDefinition>;

type EventDefinitions = typeof eventDefinitions;
/** The event types of the catalog a change emits: what `*` stands for. */
export type EventType = keyof typeof changeEvents;
/** The event types a change emits that a webhook receives only when it names them. */
export type OptInEventType = keyof typeof optInEvents;
/** Every event type a webhook receives: the catalog, the test event and the opt-in events. */
export type DeliveredEventType = keyof EventDefinitions;
/** The `data` of an event type. */
export type EventData<Type extends DeliveredEventType> = z.output<EventDefinitions[Type]['data']>;

// Object.keys, Object.entries and Object.fromEntries type keys as mere strings: the casts
// below restore the keys of the definitions they read.

/** The event types of the catalog a change emits, in catalog order (docs/api.md › Events): what `*` stands for. */
export const eventTypes = Object.keys(changeEvents) as readonly EventType[];

/** The opt-in event types: subscribable by name only. */
export const optInEventTypes = Object.keys(optInEvents) as readonly OptInEventType[];

/** Whether `type` is an opt-in event type, which `*` does not include. */
export function isOptInEventType(type: string): type is OptInEventType {
  return Object.hasOwn(optInEvents, type);
}

function listed<Type extends DeliveredEventType>(definitions: Record<Type, EventDefinition>): readonly { type: Type; description: string }[] {
  return Object.entries<EventDefinition>(definitions).map(([type, { description }]) => ({ type: type as Type, description }));
}

/** The catalog as `GET /api/webhooks/events` lists it under `events`: the change events, then the test event. */
export const listedEvents = listed<EventType | typeof PING_EVENT>({ ...changeEvents, ...pingEvent });

/** The opt-in events, as `GET /api/webhooks/events` lists them under `optInEvents`. */
export const listedOptInEvents = listed<OptInEventType>(optInEvents);

/** The envelope of one event type (docs/api.md › Events): what a webhook receives. */
function envelope<Type extends DeliveredEventType, Data extends z.ZodObject>(type: Type, data: Data) {
  return z.object({
    id: Uuid.describe('The event id: the same in every delivery of the event; deduplicate by it (delivery is at least once).'),
    type: z.literal(type),
    apiVersion: z.literal(API_VERSION),
    createdAt: DateTime.describe('When it happened; order events by it (delivery is unordered). The events of one write are a millisecond apart, in the order things happened.'),
    workspaceId: Uuid,
    projectId: Uuid.describe('The project concerned; the nil UUID when none is (the ping of a workspace-wide webhook).'),
    actor: z
      .object({
        id: Uuid,
        name: z.string(),
        client: z
          .object({ id: z.string(), name: z.string() })
          .nullable()
          .describe('The OAuth app that acted for the person (through the API or the MCP server), or null when the person acted with their own key or in the web app.'),
      })
      .describe('Who made the change (for `webhook.ping`: who asked for it).'),
    data,
  });
}

type EnvelopeSchema<Type extends DeliveredEventType> = ReturnType<typeof envelope<Type, EventDefinitions[Type]['data']>>;
type AnyEnvelopeSchema = { [Type in DeliveredEventType]: EnvelopeSchema<Type> }[DeliveredEventType];

/** The envelope schema of each event type, by type. */
export const eventEnvelopes = Object.fromEntries(Object.entries(eventDefinitions).map(([type, { data }]) => [type, envelope(type as DeliveredEventType, data)])) as {
  [Type in DeliveredEventType]: EnvelopeSchema<Type>;
};

/** Any event a webhook receives, told apart by `type`. */
export const EventEnvelope = z.discriminatedUnion('type', Object.values(eventEnvelopes) as [AnyEnvelopeSchema, ...AnyEnvelopeSchema[]]);
export type EventEnvelope = z.output<typeof EventEnvelope>;
/** The envelope of one event type. */
export type EventEnvelopeOf<Type extends DeliveredEventType> = Extract<EventEnvelope, { type: Type }>;
