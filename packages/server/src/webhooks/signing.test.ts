import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../domain/webhooks/signing-secret.js';
import { signPayload, verifySignature } from './signing.js';

// Stripe signs webhooks with the same scheme (`t=…,v1=<hex HMAC-SHA256("<t>.<body>")>`), so
// its SDK is an independent implementation to check ours against. No network is involved:
// `webhooks.*` are local computations and the client never sends a request here.
const stripe = new Stripe('sk_test_x');

const body = JSON.stringify({
  id: '0b7e3f2a-5c1d-4e8f-9a6b-2c3d4e5f6a7b',
  type: 'task.completed',
  apiVersion: '2026-10-01',
  data: { task: { name: 'Pour foundation — phase 2 ✓', emoji: '🏗️' } },
});
const t = 1_790_000_000;

describe('signPayload', () => {
  it('is accepted by Stripe’s verifier (constructEvent)', () => {
    const secret = generateSigningSecret();
    const header = signPayload(secret, body, t);
    // Stripe's `receivedAt` is in milliseconds.
    const event = stripe.webhooks.constructEvent(body, header, secret, 300, undefined, (t + 10) * 1000);
    expect(event).toMatchObject({ id: '0b7e3f2a-5c1d-4e8f-9a6b-2c3d4e5f6a7b', type: 'task.completed' });
  });

  it('is accepted by Stripe at the current time with its default tolerance', () => {
    const secret = generateSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    expect(() => stripe.webhooks.constructEvent(body, signPayload(secret, body, now), secret)).not.toThrow();
  });

  it('produces byte-for-byte the header Stripe generates', () => {
    const secret = 'whsec_test0123456789';
    expect(signPayload(secret, body, t)).toBe(stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: t }));
  });

  it('has the documented shape and HMAC input', () => {
    const header = signPayload('whsec_k', '{"a":1}', 42);
    const expected = createHmac('sha256', 'whsec_k').update('42.{"a":1}').digest('hex');
    expect(header).toBe(`t=42,v1=${expected}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('is rejected by Stripe when the body, secret or timestamp differ', () => {
    const secret = generateSigningSecret();
    const header = signPayload(secret, body, t);
    const verify = (payload: string, key: string, receivedAtSec: number) => () =>
      stripe.webhooks.constructEvent(payload, header, key, 300, undefined, receivedAtSec * 1000);
    expect(verify(body.replace('phase 2', 'phase 3'), secret, t)).toThrow(/signature/i);
    expect(verify(body, generateSigningSecret(), t)).toThrow(/signature/i);
    expect(verify(body, secret, t + 301)).toThrow(/tolerance/i);
    expect(verify(body, secret, t + 300)).not.toThrow();
  });

  it('refuses programming errors', () => {
    expect(() => signPayload('', body, t)).toThrow(TypeError);
    expect(() => signPayload('whsec_x', body, 1.5)).toThrow(TypeError);
    expect(() => signPayload('whsec_x', body, -1)).toThrow(TypeError);
    expect(() => signPayload('whsec_x', body, Number.NaN)).toThrow(TypeError);
  });
});

describe('generateSigningSecret', () => {
  it('is whsec_ plus 43 letters/digits (256 bits), different every time', () => {
    const secrets = Array.from({ length: 200 }, generateSigningSecret);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('uses the whole alphabet (no stuck digit from the encoding)', () => {
    const seen = new Set(Array.from({ length: 200 }, generateSigningSecret).flatMap((s) => [...s.slice(6)]));
    expect(seen.size).toBe(62);
  });
});

describe('verifySignature', () => {
  const secret = 'whsec_verifier';
  const header = signPayload(secret, body, t);

  it('accepts our own header and a Stripe-generated one', () => {
    expect(verifySignature(secret, body, header, t)).toBe(true);
    const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: t });
    expect(verifySignature(secret, body, stripeHeader, t + 299)).toBe(true);
  });

  it('rejects a tampered body, signature or secret', () => {
    expect(verifySignature(secret, body.replace('2026', '2025'), header, t)).toBe(false);
    expect(verifySignature(secret, `${body} `, header, t)).toBe(false);
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(verifySignature(secret, body, flipped, t)).toBe(false);
    expect(verifySignature('whsec_other', body, header, t)).toBe(false);
    expect(verifySignature('', body, header, t)).toBe(false);
  });

  it('rejects a timestamp outside the tolerance, in either direction', () => {
    expect(verifySignature(secret, body, header, t + 300)).toBe(true);
    expect(verifySignature(secret, body, header, t - 300)).toBe(true);
    expect(verifySignature(secret, body, header, t + 301)).toBe(false);
    expect(verifySignature(secret, body, header, t - 301)).toBe(false);
    expect(verifySignature(secret, body, header, t + 3_600, 3_600)).toBe(true);
    expect(verifySignature(secret, body, header, t + 61, 60)).toBe(false);
  });

  it('rejects a signature moved to another timestamp (t is signed)', () => {
    const v1 = header.split(',v1=')[1] as string;
    expect(verifySignature(secret, body, `t=${t + 1},v1=${v1}`, t)).toBe(false);
  });

  it('accepts any of several v1 values and ignores unknown schemes', () => {
    const v1 = header.split(',v1=')[1] as string;
    expect(verifySignature(secret, body, `t=${t},v1=${'0'.repeat(64)},v1=${v1},v0=abc`, t)).toBe(true);
    expect(verifySignature(secret, body, `t=${t},v1=${v1.toUpperCase()}`, t)).toBe(true);
  });

  it.each([
    '',
    'garbage',
    `t=${t}`,
    `v1=${'a'.repeat(64)}`,
    `t=abc,v1=${'a'.repeat(64)}`,
    `t=-5,v1=${'a'.repeat(64)}`,
    `t=${t}.5,v1=${'a'.repeat(64)}`,
    `t=${t},t=${t},v1=${'a'.repeat(64)}`,
    `t=${t},v1=${'a'.repeat(63)}`,
    `t=${t},v1=${'g'.repeat(64)}`,
    `t=${t},v0=${'a'.repeat(64)}`,
  ])('rejects the malformed header %j without throwing', (malformed) => {
    expect(verifySignature(secret, body, malformed, t)).toBe(false);
  });
});
