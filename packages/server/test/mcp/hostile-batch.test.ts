import { randomUUID } from 'node:crypto';
import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitExceededCode } from '../../src/mcp/request-budget.js';
import { planningClient, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';
import { connectLegacy, connectModern } from './support.js';

interface Answer {
  id: number;
  result?: { isError?: boolean; structuredContent?: { tasks?: unknown[] } };
  error?: { code: number; message: string; data?: { error: string; reason: string; limit: number; answerBytes?: number } };
}

/** One POST /mcp of `messages` (a 2025-03-26 JSON-RPC batch); the answers by id, and the bytes of the whole response. */
async function batch(server: TestServer, key: string, messages: Record<string, unknown>[]): Promise<{ bytes: number; answers: Map<number, Answer> }> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
    body: JSON.stringify(messages.map((message, index) => ({ jsonrpc: '2.0', id: index + 1, ...message }))),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const answers = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Answer);
  expect(answers.map((answer) => answer.id).sort((a, b) => a - b), 'every call answered once').toEqual(messages.map((_, index) => index + 1));
  return { bytes: Buffer.byteLength(text), answers: new Map(answers.map((answer) => [answer.id, answer])) };
}

const getPlan = (projectId: string) => ({ method: 'tools/call', params: { name: 'get_plan', arguments: { projectId } } });

/** The ids of the calls refused for `reason`, in order. */
function refusedFor(answers: Map<number, Answer>, reason: string): number[] {
  return [...answers.values()]
    .filter((answer) => answer.error?.data?.reason === reason)
    .map((answer) => {
      expect(answer.error).toMatchObject({ code: limitExceededCode, message: expect.stringMatching(/^limit exceeded: /), data: { error: 'limit_exceeded' } });
      return answer.id;
    })
    .sort((a, b) => a - b);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** 1,000 tasks whose notes make the plan's JSON about `bytesPerTask` a task. */
async function largePlan(client: PlanningClient, name: string, bytesPerTask: number): Promise<string> {
  const project = await client.createProject({ name });
  // A change set's body stays under the 4 MiB request limit.
  const perChangeSet = Math.floor((3 * 1024 * 1024) / bytesPerTask);
  for (let made = 0; made < 1000; made += perChangeSet) {
    const createTasks = range(made + 1, Math.min(1000, made + perChangeSet)).map((n) => ({ id: randomUUID(), name: `Task ${n}`, durationMin: 480, notes: `Note ${n} `.padEnd(bytesPerTask, 'abcdefgh') }));
    expect((await client.changeSet(project.id, { createTasks })).status).toBe(200);
  }
  return project.id;
}

/** The bytes of a plan's JSON, as REST answers it (a get_plan answer carries it twice). */
async function planBytes(server: TestServer, key: string, projectId: string): Promise<number> {
  const response = await fetch(`${server.url}/api/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.arrayBuffer()).byteLength;
}

// docs/mcp.md › Limits: one POST /mcp — a JSON-RPC batch included — runs at most 10 calls,
// one at a time, and answers at most 32 MiB; the calls past either limit each get a
// JSON-RPC error (-32005, limit exceeded) and are not run, so no read key can make the
// server build hundreds of megabytes or hold every other request for seconds.
describe('MCP batches within a budget', () => {
  let server: TestServer;
  let writeKey: string;
  let readKey: string;
  let projectId: string;
  let answerBytes: number;
  /** A plan whose get_plan answer alone is larger than a request may answer. */
  let hugeId: string;
  let hugeAnswerBytes: number;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_READS: '100000', GANTRY_RATE_LIMIT_WRITES: '100000' });
    writeKey = (await provisionUser(server, 'batch@example.com')).key;
    readKey = ((await server.cli('key', 'create', '--email', 'batch@example.com', '--scope', 'read', '--json')).json as { key: string }).key;
    projectId = await largePlan(planningClient(server, writeKey), 'Large', 3000);
    answerBytes = 2 * (await planBytes(server, readKey, projectId));
    hugeId = await largePlan(planningClient(server, writeKey), 'Huge', 17 * 1024);
    hugeAnswerBytes = 2 * (await planBytes(server, readKey, hugeId));
    expect(hugeAnswerBytes).toBeGreaterThan(limits.mcpAnswerBytesPerRequest);
  }, 180_000);
  afterAll(() => server.close());

  it('answers a 50-call get_plan batch of a read key within the bytes budget, refuses the rest per call, and keeps answering others meanwhile', async () => {
    const fitting = Math.floor(limits.mcpAnswerBytesPerRequest / answerBytes);
    expect(fitting, 'the plan fills the budget within the calls a request runs').toBeLessThan(limits.mcpCallsPerRequest);

    let batching = true;
    const healthWaits: number[] = [];
    const poll = (async () => {
      while (batching) {
        const started = performance.now();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        healthWaits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const { bytes, answers } = await batch(server, readKey, Array.from({ length: 50 }, () => getPlan(projectId))).finally(() => (batching = false));
    const batchMs = performance.now() - started;
    await poll;

    const planned = range(1, fitting).map((id) => answers.get(id)!);
    expect(planned.every((answer) => answer.result && !answer.result.isError && answer.result.structuredContent?.tasks?.length === 1000)).toBe(true);
    expect(refusedFor(answers, 'answer_bytes')).toEqual(range(fitting + 1, limits.mcpCallsPerRequest));
    expect(answers.get(fitting + 1)?.error?.data).toEqual({ error: 'limit_exceeded', reason: 'answer_bytes', limit: limits.mcpAnswerBytesPerRequest, answerBytes });
    expect(refusedFor(answers, 'calls')).toEqual(range(limits.mcpCallsPerRequest + 1, 50));
    expect(answers.get(50)?.error?.data).toEqual({ error: 'limit_exceeded', reason: 'calls', limit: limits.mcpCallsPerRequest });
    // The answers themselves, and a few hundred bytes of framing and errors per call.
    expect(bytes).toBeLessThan(limits.mcpAnswerBytesPerRequest * 1.1 + 50 * 500);

    // Calls run one at a time and the event loop turns between them: the poller is answered during the batch.
    console.log(`50-call batch: ${bytes} bytes in ${batchMs.toFixed(0)} ms; /healthz answered ${healthWaits.length} times meanwhile, the longest wait ${Math.max(...healthWaits).toFixed(0)} ms`);
    expect(healthWaits.length).toBeGreaterThan(1);
  });

  it('refuses an answer larger than a request may answer, even alone, without building it', async () => {
    const { bytes, answers } = await batch(server, readKey, [getPlan(hugeId), { method: 'tools/call', params: { name: 'list_projects', arguments: {} } }]);
    expect(answers.get(1)?.error).toEqual({
      code: limitExceededCode,
      message: expect.stringContaining(`the answer (${hugeAnswerBytes} bytes) is larger than a request may answer (${limits.mcpAnswerBytesPerRequest} bytes)`),
      data: { error: 'limit_exceeded', reason: 'answer_bytes', limit: limits.mcpAnswerBytesPerRequest, answerBytes: hugeAnswerBytes },
    });
    // Nothing was counted for it: the next call of the request is answered.
    expect(answers.get(2)?.result?.isError).toBeFalsy();
    expect(bytes).toBeLessThan(64 * 1024);

    // Sent alone by either SDK's client (one call a request; 2026-07-28 has no batches), the same refusal.
    for (const connect of [connectLegacy, connectModern]) {
      const client = await connect(server, readKey);
      await expect(client.callTool({ name: 'get_plan', arguments: { projectId: hugeId } }), client.sdk).rejects.toMatchObject({ code: limitExceededCode, data: { reason: 'answer_bytes', answerBytes: hugeAnswerBytes } });
      await client.close();
    }
  });

  it('answers a call that saved a change even past the bytes budget, then runs no further call', async () => {
    const tasks = (await planningClient(server, writeKey).fullProject(hugeId)).body.tasks;
    // Every task changes: the write's answer lists all 1,000 with their notes, more than a request may answer.
    const apply = { method: 'tools/call', params: { name: 'apply_changes', arguments: { projectId: hugeId, updateTasks: tasks.map((task) => ({ id: task.id, durationMin: 960 })) } } };
    const { answers } = await batch(server, writeKey, [apply, getPlan(projectId)]);
    const saved = answers.get(1)?.result;
    expect(saved?.isError).toBeFalsy();
    expect(saved?.structuredContent?.tasks).toHaveLength(1000);
    expect(refusedFor(answers, 'answer_bytes')).toEqual([2]);
    expect((await planningClient(server, writeKey).fullProject(hugeId)).body.tasks.every((task) => task.durationMin === 960)).toBe(true);
  });
});
