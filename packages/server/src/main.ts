import { systemClock } from './clock.js';
import { createServer, type AddressInfo } from 'node:net';
import { defaultBaseUrl, loadConfig, type Config } from './config.js';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { MailSender } from './mail/mail-sender.js';
import { buildService } from './service.js';
import { openUpgradedStore } from './open-upgraded-store.js';
import { RedisWindows } from './rate-limits/redis-windows.js';
import { SharedWindows } from './rate-limits/shared-windows.js';
import type { SlidingWindows } from './rate-limits/sliding-window-limiter.js';
import { WebhookWorker } from './webhooks/delivery-worker.js';
import { guardedFetch } from './webhooks/http-sender.js';
import { destinationPolicy } from './webhooks/policy.js';

async function openServices(config: Config) {
  const logger = createLogger(config.logLevel);
  const { store, applied, recomputedProjects } = await openUpgradedStore({ ...config, background: true }, systemClock);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
  if (recomputedProjects > 0) logger.info({ projects: recomputedProjects }, 'recomputed the derived values of plans an older version wrote');
  if (config.webhookAllowPrivate) {
    logger.warn('GANTRY_WEBHOOK_ALLOW_PRIVATE=1: webhooks may target private and loopback addresses; never use this in production');
  }
  const webhookDestinations = destinationPolicy(config.webhookAllowPrivate);
  const worker = new WebhookWorker({
    ctx: { store, clock: systemClock, baseUrl: config.baseUrl, webhookDestinations },
    log: logger,
    retryDelaysSec: config.webhookRetryDelaysSec,
    allowPrivate: config.webhookAllowPrivate,
    leaseMs: config.webhookLeaseSec * 1000,
  });
  const mail = config.smtpUrl ? new MailSender(store, config.smtpUrl, config.mailFrom, systemClock, logger) : null;
  /** The work of `gantry worker`: webhook delivery (with the retention of its log and of idle rate-limit windows) and e-mail. */
  const background = {
    start() {
      worker.start();
      mail?.start();
      if (!mail) logger.info('SMTP_URL is not set: e-mail stays in the local outbox (gantry mail list)');
    },
    async stop() {
      await worker.stop();
      await mail?.close();
    },
  };
  return { logger, store, webhookDestinations, background };
}

/** With `REDIS_URL`, rate limits count in Redis (falling back to this node's own while it is away); else where the app chooses. */
async function openRateWindows(config: Config, logger: Logger): Promise<{ windows: SlidingWindows | undefined; close(): Promise<void> }> {
  if (!config.redisUrl) return { windows: undefined, close: async () => undefined };
  const warn = (error: unknown) => logger.warn({ err: error }, 'rate limits count on this node alone for now: Redis did not answer');
  const redis = new RedisWindows(config.redisUrl);
  try {
    await redis.connect();
  } catch (error) {
    await redis.close();
    throw new Error(`REDIS_URL: could not connect to Redis (${error instanceof Error ? error.message : String(error)})`);
  }
  return { windows: new SharedWindows(redis, warn), close: () => redis.close() };
}

/** Stops on SIGTERM/SIGINT: `close` runs once, then the process exits. */
function onStopSignal(logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/**
 * `gantry worker`: the background work alone — webhook delivery, e-mail, retention — for
 * scaling it out (`serve` runs it too unless GANTRY_SERVE_WORKER=0). Several workers, on
 * PostgreSQL, share the work without sending an attempt twice.
 */
export async function work(config: Config = loadConfig(process.env)): Promise<void> {
  const { logger, store, background } = await openServices(config);
  onStopSignal(logger, async () => {
    await background.stop();
    await store.close();
  });
  background.start();
  logger.info({ store: store.dialect }, 'gantry worker is running');
}

/**
 * `PORT=0` asks for any free port; when `BASE_URL` is not set either, the links the
 * service writes (task `url`s, e-mails, the OpenAPI `servers`) must name the port actually
 * used, so it is chosen before anything is built.
 */
async function withPortChosen(config: Config): Promise<Config> {
  if (config.port !== 0 || config.baseUrl !== defaultBaseUrl(0)) return config;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, config.host, resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return { ...config, port, baseUrl: defaultBaseUrl(port) };
}

/**
 * The composition root of `gantry serve`: config → store (migrated) → HTTP app, webhook
 * worker and mail sender. SIGTERM/SIGINT stop accepting connections, let in-flight
 * requests finish, flush the audit log, stop the worker and close the store.
 */
export async function serve(given: Config = loadConfig(process.env)): Promise<void> {
  const config = await withPortChosen(given);
  const { logger, store, webhookDestinations, background } = await openServices(config);
  const publicFetch = guardedFetch({ allowPrivate: config.webhookAllowPrivate });
  const rateWindows = await openRateWindows(config, logger).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const app = buildService({ config, store, clock: systemClock, logger, webhookDestinations, publicFetch, rateWindows: rateWindows.windows, processMetrics: true });
  try {
    // Not a URL: people must open BASE_URL (the ready line), as other origins are refused as cross-site.
    await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => `listening on ${new URL(address).host}` });
  } catch (error) {
    // Nothing else has started yet: close what is open, so the command exits with the error.
    await app.close();
    await rateWindows.close();
    await store.close();
    throw error;
  }
  onStopSignal(logger, async () => {
    await app.close();
    if (config.serveWorker) await background.stop();
    await rateWindows.close();
    await store.close();
  });
  if (config.serveWorker) background.start();
  else logger.info('GANTRY_SERVE_WORKER=0: webhook delivery, e-mail and retention are left to gantry worker');
  logger.info({ store: store.dialect, baseUrl: config.baseUrl, rateLimits: config.redisUrl ? 'redis' : store.sharedWindows ? 'database' : 'memory' }, `Gantry is ready at ${config.baseUrl}`);
}
