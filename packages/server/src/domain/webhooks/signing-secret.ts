import { randomBytes } from 'node:crypto';

/** Prefix of every signing secret, so a leaked secret is recognisable (secret scanners). */
const SIGNING_SECRET_PREFIX = 'whsec_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 62^43 > 2^256, so 43 base-62 digits carry all 32 random bytes without bias or loss.
const SECRET_DIGITS = 43;

/**
 * Creates a new signing secret: `whsec_` followed by 43 characters from `[0-9A-Za-z]`
 * encoding 32 bytes (256 bits) from the CSPRNG. Letters and digits only, so it survives
 * copy-paste, shells and environment files unquoted.
 */
export function generateSigningSecret(): string {
  let value = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let digits = '';
  for (let i = 0; i < SECRET_DIGITS; i += 1) {
    digits = BASE62.charAt(Number(value % 62n)) + digits;
    value /= 62n;
  }
  return SIGNING_SECRET_PREFIX + digits;
}

