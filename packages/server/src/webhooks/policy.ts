import type { DomainContext } from '../domain/context.js';
import { checkWebhookUrl } from './destination-guard.js';

/** The destination policy the domain applies when a webhook is subscribed. */
export function destinationPolicy(allowPrivate: boolean): NonNullable<DomainContext['webhookDestinations']> {
  return {
    check(url) {
      const checked = checkWebhookUrl(url, { allowPrivate });
      return checked.ok ? { ok: true, url: checked.url.href } : checked;
    },
  };
}
