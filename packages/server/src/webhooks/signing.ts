import { createHmac, timingSafeEqual } from 'node:crypto';

// Webhook signatures (docs/api.md › Deliveries): the `Service-Signature` header is
// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole secret
// string (prefix included). This is the scheme Stripe uses, so receivers can reuse existing
// verifiers, and our tests check our output against Stripe's own implementation.

/** Default receiver tolerance between `t` and the receiver's clock, in seconds (5 min, as docs/api.md tells receivers). */
export const SIGNATURE_TOLERANCE_SEC = 300;

function hmacHex(secret: string, rawBody: string, timestampSec: number): string {
  return createHmac('sha256', secret).update(`${timestampSec}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * Computes the `Service-Signature` header value for one delivery attempt.
 *
 * @param secret the webhook's signing secret, used verbatim (UTF-8) as the HMAC key.
 * @param rawBody the exact body bytes that will be sent (as a string, encoded UTF-8); sign
 *   after serialising and never re-serialise afterwards.
 * @param timestampSec Unix time in whole seconds, normally the clock at sending time (a
 *   retry is signed afresh, so receivers with a 5-minute tolerance accept it).
 * @returns `t=<timestampSec>,v1=<64 lowercase hex digits>`.
 * @throws TypeError for an empty secret or a timestamp that is not a non-negative safe
 *   integer (programming errors, not delivery failures).
 */
export function signPayload(secret: string, rawBody: string, timestampSec: number): string {
  if (secret === '') throw new TypeError('signPayload: empty secret');
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new TypeError('signPayload: timestampSec must be a non-negative integer number of seconds');
  }
  return `t=${timestampSec},v1=${hmacHex(secret, rawBody, timestampSec)}`;
}

/**
 * Receiver-side check of a `Service-Signature` header, for our docs' receiver example and
 * tests. Accepts when the header has an integer `t` within `toleranceSec` of `nowSec` (either
 * direction) and at least one `v1` equal to the expected HMAC. Several `v1` entries are
 * allowed, as in Stripe's format; unknown keys (such as `v0`) are ignored.
 *
 * The comparison is constant-time in the signature contents (`crypto.timingSafeEqual`),
 * so response timing does not reveal how many leading characters matched.
 *
 * @param nowSec the receiver's clock, Unix seconds.
 * @param toleranceSec maximum |nowSec − t|, seconds; default 300 (5 minutes).
 * @returns `false` for any malformed header, stale timestamp or mismatch; never throws.
 */
export function verifySignature(
  secret: string,
  rawBody: string,
  header: string,
  nowSec: number,
  toleranceSec: number = SIGNATURE_TOLERANCE_SEC,
): boolean {
  if (secret === '') return false;
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't') {
      // A second `t` would make it ambiguous which timestamp was signed.
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) {
      candidates.push(value.toLowerCase());
    }
  }
  if (timestamp === null || candidates.length === 0) return false;
  if (!(Math.abs(nowSec - timestamp) <= toleranceSec)) return false;
  const expected = Buffer.from(hmacHex(secret, rawBody, timestamp), 'utf8');
  let matched = false;
  for (const candidate of candidates) {
    // Every candidate is compared (no early exit); lengths are equal by the regex above.
    matched = timingSafeEqual(expected, Buffer.from(candidate, 'utf8')) || matched;
  }
  return matched;
}
