import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, loggableUrl } from './logger.js';

describe('logs keep no secret', () => {
  it('censors the one-time tokens of links in request URLs, and nothing else', () => {
    expect(loggableUrl('/reset-password?token=abc123')).toBe('/reset-password?token=[redacted]');
    expect(loggableUrl('/verify-email?lang=de&token=abc#top')).toBe('/verify-email?lang=de&token=[redacted]#top');
    expect(loggableUrl('/join/Zm9vYmFy?x=1')).toBe('/join/[redacted]?x=1');
    expect(loggableUrl('/sign-in?next=%2Fjoin%2FZm9v-YmFy')).toBe('/sign-in?next=%2Fjoin%2F[redacted]');
    expect(loggableUrl('/verify-email?token=abc&next=%2fJoin%2fZm9vYmFy&x=1')).toBe('/verify-email?token=[redacted]&next=%2fJoin%2f[redacted]&x=1');
    expect(loggableUrl('/sign-up?next=/join/Zm9vYmFy')).toBe('/sign-up?next=/join/[redacted]');
    expect(loggableUrl('/api/projects/p1/tasks?q=token&limit=5')).toBe('/api/projects/p1/tasks?q=token&limit=5');
  });

  it("Fastify's request lines carry the censored URL, and no Authorization header or cookie", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const app = Fastify({ loggerInstance: createLogger('info', sink) });
    app.get('/*', async () => 'page');
    await app.inject({ url: '/reset-password?token=s3cr3t-reset', headers: { authorization: 'Bearer gnt_s3cr3t', cookie: 'gantry_session=s3cr3t' } });
    await app.inject({ url: '/join/s3cr3t-invite' });
    await app.close();
    const logged = lines.join('\n');
    expect(logged).toContain('/reset-password?token=[redacted]');
    expect(logged).toContain('/join/[redacted]');
    expect(logged).not.toContain('s3cr3t');
  });
});
