/** Every webhook event type, with what triggers it (docs/api.md › Events says which are emitted yet). */
export const eventCatalog = [
  { type: 'project.created', description: 'A project is created: blank, from a template, duplicated or imported (`data.source`).' },
  { type: 'project.updated', description: 'Project fields change, or a saved version is restored (`data.changes`, `data.reason`).' },
  { type: 'project.deleted', description: 'A project is deleted (in the web app).' },
  { type: 'task.created', description: 'A task is created (`data.task`).' },
  { type: 'task.updated', description: 'Task fields or assignees change (`data.changes` holds only what changed, as `{field: {from, to}}`).' },
  { type: 'task.deleted', description: 'A task is deleted; one event per task when a branch is deleted.' },
  { type: 'task.completed', description: 'Task progress reaches 100% (`data.task`).' },
  { type: 'task.dates_changed', description: 'A task\'s start or finish moves: by an edit of the task (`data.cause` = `edit`) or by recalculation (`reschedule`); `data.previous` holds the old dates.' },
  { type: 'dependency.created', description: 'A dependency is created, or its type/lag changes (`data.dependency`).' },
  { type: 'dependency.deleted', description: 'A dependency is removed (`data.dependency`).' },
  { type: 'baseline.saved', description: 'A baseline is saved, manually or automatically at the first progress (`data.baseline`, `data.automatic`).' },
  { type: 'member.invited', description: 'An invite link is created for the project.' },
  { type: 'member.joined', description: 'A person joins the project (`data.member`).' },
  { type: 'comment.created', description: 'A comment is added to a task (`data.comment`, `data.taskId`).' },
] as const;

export type EventType = (typeof eventCatalog)[number]['type'];
export const eventTypes: readonly string[] = eventCatalog.map((entry) => entry.type);

/** The test event a webhook can be sent on request; never emitted by changes. */
export const PING_EVENT = 'webhook.ping';

/** The catalog as `GET /api/webhooks/events` lists it: the change events, then the test event. */
export const listedEvents: readonly { type: string; description: string }[] = [
  ...eventCatalog,
  { type: PING_EVENT, description: 'The test event, sent on request (POST /api/webhooks/{id}/ping) to any webhook; data: message and webhook {id, name, events}. Not subscribable.' },
];
