import type { EventData, Task } from '@gantry/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { DomainEvent } from './outbox.js';

// Type-level: `npm run typecheck` compiles this file, and each `@ts-expect-error` fails it
// when the line below compiles, i.e. when DomainEvent stops rejecting what the line shows.
describe('DomainEvent', () => {
  const where = { workspaceId: 'w', projectId: 'p' };
  const dependency = { id: 'd', predecessorId: 'a', successorId: 'b', type: 'FS', lagMin: 0 } as const;
  const emit = (_event: DomainEvent) => undefined;

  it('takes a catalog type with the data of that type', () => {
    emit({ ...where, type: 'dependency.created', data: { dependency } });
    expectTypeOf<Extract<DomainEvent, { type: 'task.completed' }>['data']>().toEqualTypeOf<{ task: Task }>();
    expectTypeOf<Extract<DomainEvent, { type: 'task.completed' }>['data']>().toEqualTypeOf<EventData<'task.completed'>>();
  });

  it('rejects a misspelled type', () => {
    // @ts-expect-error `dependency.create` is not an event type
    emit({ ...where, type: 'dependency.create', data: { dependency } });
  });

  it('rejects the test event, which no change emits', () => {
    // @ts-expect-error `webhook.ping` is sent on request, never appended to the outbox
    emit({ ...where, type: 'webhook.ping', data: { message: 'hi', webhook: { id: 'h', name: null, events: [] } } });
  });

  it('rejects a payload that is not the one of its type', () => {
    // @ts-expect-error `task.created` carries a task, not a dependency
    emit({ ...where, type: 'task.created', data: { dependency } });
    // @ts-expect-error `cause` is `edit` or `reschedule`
    emit({ ...where, type: 'task.dates_changed', data: { task: {} as Task, cause: 'moved', previous: { startAt: null, finishAt: null } } });
    // @ts-expect-error `previous` is missing
    emit({ ...where, type: 'task.dates_changed', data: { task: {} as Task, cause: 'edit' } });
    // @ts-expect-error a change of `name` is from one string to another
    emit({ ...where, type: 'task.updated', data: { task: {} as Task, changes: { name: { from: 1, to: 2 } } } });
  });
});
