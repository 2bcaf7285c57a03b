#!/usr/bin/env node
// Webhook delivery through the real server and its in-process worker, to a receiver on
// loopback: throughput (2,000 events fanned out and delivered) and write-to-delivery
// latency (one write at a time, from sending the request to the receiver's first byte).
import http from 'node:http';
import { benchStore, median, startGantry } from './support.js';

const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const latencySamples = Number(process.env.BENCH_WEBHOOK_SAMPLES ?? 40);

const arrivals = [];
let onArrival = () => {};
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.push({ at: performance.now(), eventId: request.headers['service-event-id'] });
    onArrival();
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

const store = await benchStore(undefined);
// Loopback receiver: allowed only because this is a benchmark (never in production).
const gantry = await startGantry({ ...store.env, GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' });
const call = async (method, path, body) => {
  const response = await fetch(`${gantry.base}${path}`, { method, headers: gantry.headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response.json();
};
const waitForArrivals = (count) =>
  new Promise((resolve) => {
    onArrival = () => arrivals.length >= count && resolve();
    onArrival();
  });

try {
  const { project } = await call('POST', '/api/projects', { name: 'Webhook bench', startDate: '2026-03-02' });
  await call('POST', '/api/webhooks', { url: receiverUrl, events: ['task.created'], projectId: project.id });

  const started = performance.now();
  for (let sent = 0; sent < events; sent += 1000) {
    const batch = Array.from({ length: Math.min(1000, events - sent) }, (_, i) => ({ name: `Task ${sent + i}`, durationMin: 60 }));
    await call('POST', `/api/projects/${project.id}/tasks`, { createTasks: batch });
  }
  await waitForArrivals(events);
  const seconds = (performance.now() - started) / 1000;
  const perSec = events / seconds;

  const latencies = [];
  for (let i = 0; i < latencySamples; i++) {
    const expected = arrivals.length + 1;
    const sentAt = performance.now();
    const arrived = waitForArrivals(expected);
    await call('POST', `/api/projects/${project.id}/tasks`, { name: `Latency ${i}` });
    await arrived;
    latencies.push(arrivals[expected - 1].at - sentAt);
  }
  const p50 = median(latencies);
  console.log(`webhooks: ${events} events delivered in ${seconds.toFixed(2)} s = ${perSec.toFixed(0)} deliveries/s (target ≥ 500); write-to-delivery p50 ${p50.toFixed(1)} ms (target ≤ 200, ${latencySamples} samples)`);
  console.log(JSON.stringify({ webhookDeliveriesPerSec: Math.round(perSec), webhookLatencyP50Ms: Number(p50.toFixed(1)) }));
} finally {
  await gantry.stop();
  await store.drop();
  receiver.close();
}
