import type { DomainContext } from '../domain/context.js';
import { checkWebhookUrl, resolvedHostProblem, systemResolver, type LookupResolver } from './destination-guard.js';

/** How long a subscription waits for the host name to resolve before letting it through. */
const RESOLVE_TIMEOUT_MS = 2000;

/**
 * The destination policy the domain applies when a webhook is subscribed: the URL rules,
 * then (unless private destinations are allowed) the addresses its host name resolves to.
 * Tests inject `resolver` so that no test depends on, or sends traffic to, the real DNS.
 */
export function destinationPolicy(allowPrivate: boolean, resolver: LookupResolver = systemResolver): NonNullable<DomainContext['webhookDestinations']> {
  return {
    async check(url) {
      const checked = checkWebhookUrl(url, { allowPrivate });
      if (!checked.ok) return checked;
      const problem = allowPrivate ? null : await resolvedHostProblem(checked.url.hostname, resolver, RESOLVE_TIMEOUT_MS);
      return problem ? { ok: false, reason: problem } : { ok: true, url: checked.url.href };
    },
  };
}
