import { systemClock } from './clock.js';
import { loadConfig, type Config } from './config.js';
import { buildApp } from './http/app.js';
import { createLogger } from './logger.js';
import { MailSender } from './mail/mail-sender.js';
import { openStore } from './store/open-store.js';

/**
 * The composition root of `gantry serve`: config → store (migrated) → HTTP app.
 * SIGTERM/SIGINT stop accepting connections, let in-flight requests finish, flush the
 * audit log and close the store.
 */
export async function serve(config: Config = loadConfig(process.env)): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { store, applied } = await openStore(config);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
  if (config.webhookAllowPrivate) {
    logger.warn('GANTRY_WEBHOOK_ALLOW_PRIVATE=1: webhooks may target private and loopback addresses; never use this in production');
  }

  const app = buildApp({ config, store, clock: systemClock, logger });
  const mail = config.smtpUrl ? new MailSender(store, config.smtpUrl, config.mailFrom, systemClock, logger) : null;
  mail?.start();
  if (!mail) logger.info('SMTP_URL is not set: e-mail stays in the local outbox (gantry mail list)');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await app.close();
      await mail?.close();
      await store.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  logger.info({ store: store.dialect, baseUrl: config.baseUrl }, 'gantry is serving');
}
