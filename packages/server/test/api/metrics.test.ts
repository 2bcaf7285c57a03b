import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTask, planningClient } from '../support/planning.js';
import { startReceiver } from '../support/receiver.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

/** One sample of the Prometheus text `/metrics` answers, by its name and labels as written there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// docs/operations: the metrics Prometheus scrapes (issue 15, item 5).
describe('GET /metrics', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const metricsToken = 'scraper-token-0123456789abcdef0123456789';

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_METRICS_TOKEN: metricsToken });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('answers only the scraper holding GANTRY_METRICS_TOKEN: anyone else gets 401 with a Bearer challenge', async () => {
    const { key } = await provisionUser(server, 'curious@example.com');
    for (const authorization of [undefined, `Bearer ${metricsToken}x`, `Bearer ${metricsToken.slice(0, -1)}`, `Bearer ${key}`, metricsToken, `Basic ${btoa(`prometheus:${metricsToken}`)}`]) {
      const response = await server.request('GET', '/metrics', { headers: authorization === undefined ? {} : { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.body).toMatchObject({ error: 'unauthorized' });
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `bearer ${metricsToken}` } })).status).toBe(200);
  });

  it('reports request latency by route template, recalculation time and the webhook delivery queue', async () => {
    const owner = await provisionUser(server, 'planner@example.com');
    const client = planningClient(server, owner.key);
    const project = await client.createProject({ name: 'Measured' });
    const subscribed = await server.request('POST', '/api/webhooks', { key: owner.key, body: { url: receiver.url, events: ['task.created'], projectId: project.id } });
    expect(subscribed.status).toBe(201);
    await newTask(client, project.id, { name: 'A' });
    await newTask(client, project.id, { name: 'B' });

    const before = await scrape();
    expect(sample(before, 'gantry_http_request_duration_seconds_count{method="POST",route="/api/projects/:projectId/tasks",status="201"}')).toBe(2);
    // No path with an id becomes a series of its own.
    expect(before).not.toContain(project.id);
    expect(sample(before, 'gantry_plan_recalculation_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(before).toMatch(/^# TYPE gantry_webhook_deliveries_pending gauge$/m);

    // A receiver that fails leaves its deliveries waiting for their retry; delivered, the queue is empty.
    receiver.answer(() => ({ status: 500 }));
    await server.deliverAll();
    const queued = await scrape();
    expect(sample(queued, 'gantry_webhook_deliveries_pending{state="waiting"}')).toBe(2);
    expect(sample(queued, 'gantry_webhook_deliveries_pending{state="due"}')).toBe(0);
    receiver.answer(() => ({ status: 200 }));
    server.clock.advance(61_000);
    expect(sample(await scrape(), 'gantry_webhook_deliveries_pending{state="due"}')).toBe(2);
    await server.deliverAll();
    const after = await scrape();
    expect(sample(after, 'gantry_webhook_deliveries_pending{state="due"}')).toBe(0);
    expect(sample(after, 'gantry_webhook_deliveries_pending{state="waiting"}')).toBe(0);
  });
});
