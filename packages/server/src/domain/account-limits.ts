import type { Clock } from '../clock.js';
import { SlidingWindowLimiter, type SlidingWindows } from '../rate-limits/sliding-window-limiter.js';

const minute = 60 * 1000;
const signInWindowMs = 15 * minute;

/**
 * The limits of what anyone may do without a credential, counted where the API's rate
 * limits count (shared by every node of a cluster), and shared by every adapter that signs people in (the REST API and the OAuth sign-in page): failed
 * sign-ins per e-mail address (guessing one person's password); all sign-ins, sign-ups,
 * verifications and resets per client address (trying many, or flooding the mail outbox);
 * account mails per recipient (flooding one mailbox). Each is checked before the slow
 * password hash.
 */
export class AccountLimits {
  readonly failedSignInsPerEmail: SlidingWindowLimiter;
  readonly requestsPerAddress: SlidingWindowLimiter;
  readonly mailsPerRecipient: SlidingWindowLimiter;

  constructor(clock: Clock, windows: SlidingWindows, options: { failedSignInsPerEmail?: number; requestsPerAddress?: number; mailsPerRecipientPerHour?: number } = {}) {
    this.failedSignInsPerEmail = new SlidingWindowLimiter('sign-in-failures', options.failedSignInsPerEmail ?? 10, signInWindowMs, clock, windows);
    this.requestsPerAddress = new SlidingWindowLimiter('sign-in-address', options.requestsPerAddress ?? 50, signInWindowMs, clock, windows);
    this.mailsPerRecipient = new SlidingWindowLimiter('account-mails', options.mailsPerRecipientPerHour ?? 5, 60 * minute, clock, windows);
  }
}
