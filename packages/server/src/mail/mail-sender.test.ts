import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { queueMail } from '../domain/mail.js';
import { provisionUser, startTestServer, type TestServer } from '../../test/support/test-server.js';
import { MailSender } from './mail-sender.js';

// A real SMTP conversation with a local server (smtp-server, loopback only).
describe('MailSender', () => {
  let server: TestServer;
  let smtp: SMTPServer;
  let port: number;
  const received: { to: string[]; data: string }[] = [];
  const refusing = new Set<string>();

  beforeAll(async () => {
    server = await startTestServer();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        callback(refusing.has(address.address) ? new Error('mailbox unavailable') : undefined);
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await server.close();
  });

  it('sends queued mail over SMTP, marks it sent, and keeps a failed one pending with its error', async () => {
    const sender = new MailSender(server.store, `smtp://127.0.0.1:${port}`, 'Gantry <gantry@example.com>', server.clock, createLogger('silent'));
    const at = server.clock.now().toISOString();
    await server.store.transaction((tx) =>
      queueMail(tx, at, [
        { to: 'refused@example.com', subject: 'First', text: 'one' },
        { to: 'ada@example.com', subject: 'Hello Ada', text: 'Body text' },
      ]),
    );
    refusing.add('refused@example.com');
    await sender.sendPending();
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['ada@example.com']);
    expect(received[0]?.data).toContain('Subject: Hello Ada');
    let pending = await server.store.q.outbox.listMail({ pendingOnly: true, limit: 10 });
    expect(pending.map((m) => m.to_address)).toEqual(['refused@example.com']);
    expect(pending[0]?.error).toMatch(/mailbox unavailable/);

    refusing.clear();
    await sender.sendPending();
    pending = await server.store.q.outbox.listMail({ pendingOnly: true, limit: 10 });
    expect(pending).toEqual([]);
    expect(received.map((r) => r.to[0])).toEqual(['ada@example.com', 'refused@example.com']);
    await sender.close();
  });

  it('without SMTP the outbox is readable with `gantry mail list`', async () => {
    const owner = await provisionUser(server, 'mailer@example.com');
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Mail' } });
    const task = await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${project.body.project.id}/tasks`, { key: owner.key, body: { name: 'Write' } });
    const comment = await server.request('POST', `/api/projects/${project.body.project.id}/tasks/${task.body.tasks[0]?.id}/comments`, {
      key: owner.key,
      body: { body: 'Look at this', mentions: [owner.userId] },
    });
    expect(comment.status).toBe(201);
    const listed = await server.cli('mail', 'list', '--pending', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const mail = (listed.json as { mail: { to: string; subject: string; body: string; sentAt: string | null }[] }).mail;
    expect(mail.find((m) => m.to === 'mailer@example.com')).toMatchObject({ sentAt: null, subject: expect.stringContaining('mentioned you') });
    expect(mail.find((m) => m.to === 'mailer@example.com')?.body).toContain('Look at this');
  });
});
