import { randomUUID } from 'node:crypto';
import type { Queries } from '../store/store.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Queues e-mail in the caller's transaction: a message exists exactly when the change that
 * caused it committed. The mail sender delivers it over SMTP (SMTP_URL), or it stays in
 * the local outbox (`gantry mail list`) — never silently dropped.
 */
export async function queueMail(tx: Queries, at: string, messages: MailMessage[]): Promise<void> {
  await tx.outbox.insertMail(messages.map((m) => ({ id: randomUUID(), to_address: m.to, subject: m.subject, body: m.text, created_at: at, sent_at: null, error: null })));
}
