import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';

/** Seconds: from a cached read (a millisecond) to a large plan write (seconds). */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What `GET /metrics` reports, in Prometheus' text format: request latency by route,
 * the time the scheduling engine takes per plan write, and the webhook delivery queue.
 * One registry per app, so several apps in one process (the tests) never mix figures.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'gantry_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly recalculations = new Histogram({
    name: 'gantry_plan_recalculation_seconds',
    help: 'Time the scheduling engine took to recalculate a plan, per plan write.',
    buckets: latencyBuckets,
    registers: [this.registry],
  });

  /** `processMetrics`: also the process's own (CPU, memory, event-loop lag, GC); for a server process, not for apps built by tests. */
  constructor(store: Store, clock: Clock, options: { processMetrics: boolean }) {
    new Gauge({
      name: 'gantry_webhook_deliveries_pending',
      help: 'Webhook deliveries still to be attempted: `due` now, or `waiting` for their retry time.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const { pending, due } = await store.q.webhooks.countPendingDeliveries(clock.now().toISOString());
        this.set({ state: 'due' }, due);
        this.set({ state: 'waiting' }, pending - due);
      },
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'gantry_' });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  observeRecalculation(seconds: number): void {
    this.recalculations.observe(seconds);
  }
}
