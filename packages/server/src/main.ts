import { systemClock } from './clock.js';
import { createServer, type AddressInfo } from 'node:net';
import { defaultBaseUrl, loadConfig, type Config } from './config.js';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { MailSender } from './mail/mail-sender.js';
import { buildService } from './service.js';
import { openStore } from './store/open-store.js';
import { WebhookWorker } from './webhooks/delivery-worker.js';
import { guardedFetch } from './webhooks/http-sender.js';
import { destinationPolicy } from './webhooks/policy.js';

async function openServices(config: Config) {
  const logger = createLogger(config.logLevel);
  const { store, applied } = await openStore(config);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
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
  return { logger, store, webhookDestinations, worker };
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
 * `gantry worker`: the webhook worker alone (for scaling delivery out; `serve` runs one
 * too). Several workers, on PostgreSQL, share the work without sending an attempt twice.
 */
export async function work(config: Config = loadConfig(process.env)): Promise<void> {
  const { logger, store, worker } = await openServices(config);
  onStopSignal(logger, async () => {
    await worker.stop();
    await store.close();
  });
  worker.start();
  logger.info({ store: store.dialect }, 'gantry webhook worker is running');
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
  const { logger, store, webhookDestinations, worker } = await openServices(config);
  const publicFetch = guardedFetch({ allowPrivate: config.webhookAllowPrivate });
  const app = buildService({ config, store, clock: systemClock, logger, webhookDestinations, publicFetch, processMetrics: true });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Nothing else has started yet: close what is open, so the command exits with the error.
    await app.close();
    await store.close();
    throw error;
  }
  const mail = config.smtpUrl ? new MailSender(store, config.smtpUrl, config.mailFrom, systemClock, logger) : null;
  mail?.start();
  if (!mail) logger.info('SMTP_URL is not set: e-mail stays in the local outbox (gantry mail list)');
  onStopSignal(logger, async () => {
    await app.close();
    await worker.stop();
    await mail?.close();
    await store.close();
  });
  worker.start();
  logger.info({ store: store.dialect, baseUrl: config.baseUrl }, 'gantry is serving');
}
