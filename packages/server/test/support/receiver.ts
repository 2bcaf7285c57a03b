import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveredEventType, EventEnvelope, EventEnvelopeOf } from '@gantry/contract';
import { expect } from 'vitest';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { deliveryProblems } from './event-check.js';

export interface ReceivedCall {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: EventEnvelope;
}

/**
 * A webhook receiver on 127.0.0.1: records every call and answers with `respond()`'s
 * status (200 unless a test changes it; a test may act before it answers), after `delayMs`. Every delivery is checked against
 * the contract and the OpenAPI `webhooks`; what does not match is kept in `problems`, and
 * `close()` fails the test file when any is left.
 */
export async function startReceiver(options: { delayMs?: number } = {}) {
  const calls: ReceivedCall[] = [];
  const problems: string[] = [];
  type Answer = { status: number; headers?: Record<string, string>; body?: string };
  let respond: (call: ReceivedCall) => Answer | Promise<Answer> = () => ({ status: 200 });
  const server = http.createServer((request, response) => {
    let rawBody = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (rawBody += chunk));
    request.on('end', () => {
      const body: unknown = JSON.parse(rawBody);
      problems.push(...deliveryProblems(request.headers, body).map((problem) => `${String(request.headers['service-event'])} delivery: ${problem}`));
      const call: ReceivedCall = { headers: request.headers, rawBody, body: body as EventEnvelope };
      calls.push(call);
      void Promise.resolve(respond(call)).then((answer) =>
        setTimeout(() => {
          response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          response.end(answer.body ?? 'ok');
        }, options.delayMs ?? 0),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    calls,
    problems,
    /** The bodies received of one event type, typed as its envelope. */
    of<Type extends DeliveredEventType>(type: Type): EventEnvelopeOf<Type>[] {
      return calls.map((call) => call.body).filter((body): body is EventEnvelopeOf<Type> => body.type === type);
    },
    answer(fn: typeof respond) {
      respond = fn;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      expect(problems, 'deliveries that do not match the contract').toEqual([]);
    },
  };
}

/** Runs the worker until it has nothing left to do now (at most 10 rounds). */
export async function drainWorker(worker: WebhookWorker): Promise<void> {
  for (let round = 0; round < 10 && (await worker.runOnce()); round++);
}
