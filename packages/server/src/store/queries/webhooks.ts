import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../schema.js';
import type { Dialect, Executor } from './executor.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;
export type OutboxEventRow = Selectable<EventsTable>;

export function webhookQueries(db: Executor, dialect: Dialect) {
  /** Deliveries still to attempt whose time has come and whose lease (if any) has run out, at `now`. */
  const dueDeliveries = (now: string) =>
    db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));

  return {
    async insert(row: Insertable<WebhooksTable>): Promise<void> {
      await db.insertInto('webhooks').values(row).execute();
    },
    async update(id: string, changes: Updateable<WebhooksTable>): Promise<void> {
      await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).where('status', '=', 'pending').execute();
      await db.deleteFrom('webhooks').where('id', '=', id).execute();
    },
    findById(id: string): Promise<WebhookRow | undefined> {
      return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    listForOwner(ownerId: string, workspaceId: string | null): Promise<WebhookRow[]> {
      let query = db.selectFrom('webhooks').selectAll().where('owner_id', '=', ownerId);
      if (workspaceId) query = query.where('workspace_id', '=', workspaceId);
      return query.orderBy('created_at').orderBy('id').execute();
    },
    async countInWorkspace(workspaceId: string): Promise<number> {
      const row = await db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('count')).where('workspace_id', '=', workspaceId).executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    listActiveInWorkspaces(workspaceIds: string[]): Promise<WebhookRow[]> {
      if (workspaceIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('webhooks').selectAll().where('workspace_id', 'in', workspaceIds).where('status', '=', 'active').execute();
    },

    /**
     * Claims outbox events not yet fanned out, oldest first. On PostgreSQL concurrent
     * dispatchers skip each other's rows; the caller marks them dispatched in the same
     * transaction.
     */
    claimUndispatchedEvents(limit: number): Promise<OutboxEventRow[]> {
      let query = db.selectFrom('events').selectAll().where('dispatched', '=', 0).orderBy('created_at').orderBy('id').limit(limit);
      if (dialect === 'postgres') query = query.forUpdate().skipLocked();
      return query.execute();
    },
    async markDispatched(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.updateTable('events').set({ dispatched: 1 }).where('id', 'in', ids).execute();
    },
    async insertDeliveries(rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
      for (let start = 0; start < rows.length; start += 200) {
        await db.insertInto('webhook_deliveries').values(rows.slice(start, start + 200)).execute();
      }
    },

    /** Whether events wait to be dispatched, and whether deliveries are due and unleased at `now`: one read. */
    async pendingWork(now: string): Promise<{ events: boolean; deliveries: boolean }> {
      const row = await db
        .selectNoFrom((eb) => [
          eb.exists(eb.selectFrom('events').select('id').where('dispatched', '=', 0)).as('events'),
          eb.exists(dueDeliveries(now)).as('deliveries'),
        ])
        .executeTakeFirstOrThrow();
      return { events: Boolean(row.events), deliveries: Boolean(row.deliveries) };
    },

    /** Deliveries still to be attempted, and how many of them are due by `now` (the delivery queue). */
    async countPendingDeliveries(now: string): Promise<{ pending: number; due: number }> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.sum<number>(eb.case().when('next_attempt_at', '<=', now).then(1).else(0).end()).as('due')])
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return { pending: Number(row?.pending ?? 0), due: Number(row?.due ?? 0) };
    },

    /**
     * Leases up to `limit` due deliveries to the caller until `leaseUntil`: one statement,
     * so two workers never claim the same attempt (SKIP LOCKED on PostgreSQL; SQLite has
     * one writer). A worker that dies leaves the lease to expire, and the attempt is
     * claimed again: delivery is at least once.
     */
    async claimDueDeliveries(now: string, leaseUntil: string, limit: number): Promise<DeliveryRow[]> {
      const due = dueDeliveries(now).orderBy('next_attempt_at').limit(limit);
      const claimable = dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      return db
        .updateTable('webhook_deliveries')
        .set({ lease_until: leaseUntil })
        .where('id', 'in', claimable)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .execute();
    },
    async updateDelivery(id: string, changes: Updateable<WebhookDeliveriesTable>): Promise<void> {
      await db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
    },
    findDelivery(webhookId: string, id: string): Promise<DeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst();
    },
    /** Newest first; `before` = (created_at, id) of the last row of the previous page. */
    listDeliveries(webhookId: string, limit: number, before?: { createdAt: string; id: string }): Promise<DeliveryRow[]> {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
      if (before) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    },
    async insertAttempts(rows: Insertable<WebhookAttemptsTable>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('webhook_attempts').values(rows).execute();
    },
    listAttempts(deliveryIds: string[]): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').execute();
    },
    /** Drops the delivery log (and dispatched outbox events) older than `before`. */
    async purgeBefore(before: string): Promise<void> {
      await db
        .deleteFrom('webhook_attempts')
        .where('delivery_id', 'in', db.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).where('status', '!=', 'pending'))
        .execute();
      await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('status', '!=', 'pending').execute();
      await db.deleteFrom('events').where('created_at', '<', before).where('dispatched', '=', 1).execute();
    },
  };
}

