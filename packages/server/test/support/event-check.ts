import { EventEnvelope } from '@gantry/contract';
import { expect } from 'vitest';
import { presentEvent } from '../../src/domain/events.js';
import type { EventRow } from '../../src/store/store.js';
import { webhookProblems } from './openapi-check.js';
import type { TestServer } from './test-server.js';

/** Paths of `input` that `output` (what the schema kept) dropped: fields the contract does not name. */
function undeclaredFields(input: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(output)) return input.flatMap((item, index) => undeclaredFields(item, output[index], `${path}[${index}]`));
  if (input === null || output === null || typeof input !== 'object' || typeof output !== 'object') return [];
  return Object.entries(input).flatMap(([key, value]) =>
    key in output ? undeclaredFields(value, (output as Record<string, unknown>)[key], `${path}.${key}`) : [`${path}.${key} is not in the contract`],
  );
}

/**
 * What is wrong with an event envelope against the contract's schema of its type, including
 * fields the contract does not name (receivers ignore them, but the contract must describe
 * all the service sends). Empty when it matches.
 */
export function eventProblems(envelope: unknown): string[] {
  const parsed = EventEnvelope.safeParse(envelope);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return undeclaredFields(envelope, parsed.data, 'event');
}

/**
 * What is wrong with a webhook delivery: its body against the contract, and its headers and
 * body against the OpenAPI document's `webhooks`. Empty when it matches.
 */
export function deliveryProblems(headers: Record<string, string | string[] | undefined>, body: unknown): string[] {
  const id = (body as { id?: unknown } | null)?.id;
  return [
    ...eventProblems(body),
    ...webhookProblems(headers, body),
    ...(headers['service-event-id'] === id ? [] : [`header Service-Event-Id ${String(headers['service-event-id'])} is not the event id ${String(id)}`]),
  ];
}

/** The outbox events of a project, oldest first, each checked against the contract as webhooks would deliver it. */
export async function storedEvents(server: TestServer, projectId: string): Promise<EventRow[]> {
  const rows = await server.store.q.events.listForProject(projectId);
  for (const row of rows) expect(eventProblems(presentEvent(row)), `stored ${row.type} ${row.id}`).toEqual([]);
  return rows;
}
