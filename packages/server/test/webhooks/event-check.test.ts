import { randomUUID } from 'node:crypto';
import { API_VERSION } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../src/webhooks/signing.js';
import { deliveryProblems, eventProblems } from '../support/event-check.js';
import { startReceiver } from '../support/receiver.js';

const ping = {
  id: randomUUID(),
  type: 'webhook.ping',
  apiVersion: API_VERSION,
  createdAt: '2026-03-02T08:00:00.000Z',
  workspaceId: randomUUID(),
  projectId: randomUUID(),
  actor: { id: randomUUID(), name: 'Ada', client: null },
  data: { message: 'Hello', webhook: { id: randomUUID(), name: null, events: ['task.created'] } },
};

/** The headers the worker sends with `event`. */
function headersOf(event: { id: string; type: string }): Record<string, string> {
  return {
    'service-event': event.type,
    'service-event-id': event.id,
    'service-delivery': randomUUID(),
    'service-signature': signPayload('whsec_test', JSON.stringify(event), 1_800_000_000),
  };
}

// The check every test runs on delivered and stored events (support/event-check.ts) has teeth.
describe('the event check of the tests', () => {
  it('accepts an event as the contract and the OpenAPI document describe it', () => {
    expect(eventProblems(ping)).toEqual([]);
    expect(deliveryProblems(headersOf(ping), ping)).toEqual([]);
  });

  it('refuses a misspelled type, a payload of another type, a missing or undeclared field and another API version', () => {
    expect(eventProblems({ ...ping, type: 'webhook.pong' })).not.toEqual([]);
    expect(eventProblems({ ...ping, type: 'task.created' })).not.toEqual([]);
    expect(eventProblems({ ...ping, data: { message: 'Hello' } })).toEqual([expect.stringMatching(/^data\.webhook: /)]);
    expect(eventProblems({ ...ping, data: { ...ping.data, extra: 1 } })).toEqual(['event.data.extra is not in the contract']);
    expect(eventProblems({ ...ping, apiVersion: '2025-01-01' })).toEqual([expect.stringMatching(/^apiVersion: /)]);
  });

  it('checks the body and the headers against the OpenAPI webhooks too', () => {
    expect(deliveryProblems(headersOf(ping), { ...ping, data: {} })).toEqual(expect.arrayContaining([expect.stringMatching(/^#\/components\/schemas\/WebhookPingEvent /)]));
    const { 'service-signature': _signature, ...unsigned } = headersOf(ping);
    expect(deliveryProblems(unsigned, ping)).toEqual(['header Service-Signature is missing']);
    expect(deliveryProblems({ ...headersOf(ping), 'service-signature': 'sha256=abc' }, ping)).toEqual([expect.stringMatching(/^header Service-Signature /)]);
    expect(deliveryProblems({ ...headersOf(ping), 'service-event': 'task.created' }, ping)).toEqual([expect.stringMatching(/^header Service-Event /)]);
    expect(deliveryProblems({ ...headersOf(ping), 'service-event-id': randomUUID() }, ping)).toEqual([expect.stringMatching(/^header Service-Event-Id .* is not the event id /)]);
  });

  it('runs on every delivery the shared receiver gets', async () => {
    const receiver = await startReceiver();
    const wrong = { ...ping, data: { message: 'Hello' } };
    await fetch(receiver.url, { method: 'POST', headers: headersOf(wrong), body: JSON.stringify(wrong) });
    expect(receiver.problems).toEqual([expect.stringMatching(/^webhook\.ping delivery: data\.webhook: /), expect.stringMatching(/^webhook\.ping delivery: #\/components/)]);
    // Seen here: left in place, they would fail close().
    receiver.problems.length = 0;
    await receiver.close();
  });
});
