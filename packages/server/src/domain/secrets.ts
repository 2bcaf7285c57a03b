import { hash, timingSafeEqual } from 'node:crypto';

/**
 * How bearer secrets (API keys, OAuth codes and tokens, session ids) are stored: their
 * SHA-256, hex. They carry at least 128 random bits, so a fast hash is safe, and the store
 * never holds one that could be presented.
 */
export function secretDigest(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compares two secrets (or digests) in constant time, so the comparison tells nothing of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
