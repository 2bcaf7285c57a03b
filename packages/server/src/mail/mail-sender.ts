import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';

/**
 * Delivers the mail outbox over SMTP (SMTP_URL). Messages are queued by the domain in the
 * same transaction as the change that caused them; a message that fails stays pending with
 * its error and is retried on the next round. Without SMTP_URL nothing runs: mail stays in
 * the local outbox, readable with `gantry mail list`.
 */
export class MailSender {
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    smtpUrl: string,
    private readonly from: string,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  start(intervalMs = 2000): void {
    this.timer = setInterval(() => void this.sendPending(), intervalMs);
    this.timer.unref();
  }

  /** Sends every pending message once; resolves when the round is done. */
  sendPending(): Promise<void> {
    this.running = this.running.then(async () => {
      const pending = await this.store.q.outbox.listMail({ pendingOnly: true, limit: 50 });
      for (const message of pending) {
        try {
          await this.transport.sendMail({ from: this.from, to: message.to_address, subject: message.subject, text: message.body });
          await this.store.q.outbox.markMailSent(message.id, this.clock.now().toISOString());
        } catch (error) {
          this.log.warn({ err: error, mailId: message.id }, 'could not send e-mail; it stays queued');
          await this.store.q.outbox.markMailFailed(message.id, error instanceof Error ? error.message : String(error));
        }
      }
    }).catch((error: unknown) => {
      // The store could not be read or written (a restart): the mail stays queued for the next round, which must still run.
      this.log.warn({ err: error }, 'e-mail round failed; queued mail waits for the next one');
    });
    return this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }
}
