import { promises as dnsPromises } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Server-side request forgery defence for webhook deliveries (architecture item 9): a
// subscriber chooses the URL, so without this guard they could make the worker call the
// loopback interface, the private network or a cloud metadata service and read the answer
// back from the delivery log. Two layers:
//   1. `checkWebhookUrl` at subscription and again before each send: scheme, credentials,
//      host, and IP-literal hosts judged at once.
//   2. `guardedLookup` at connect time: every address a name resolves to is judged, and the
//      socket connects to exactly the address that was judged (no DNS-rebinding window).

/** `Error.code` carried by every refusal from {@link guardedLookup}. */
export const WEBHOOK_DESTINATION_ERROR_CODE = 'EWEBHOOKDESTINATION';

/**
 * Resolves a host name to every address it has, like
 * `dns.promises.lookup(hostname, { all: true })`. Injected in tests so that no test depends
 * on (or sends traffic to) the real DNS.
 */
export type LookupResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Whether destinations on the private network and plain `http:` are permitted. */
export interface DestinationOptions {
  /**
   * `true` only in development and tests (`GANTRY_WEBHOOK_ALLOW_PRIVATE=1`): permits
   * `http:` and turns off every address rule, so `http://127.0.0.1:8080/` is accepted.
   */
  allowPrivate: boolean;
}

/** Outcome of {@link checkWebhookUrl}; `reason` is safe to show to the subscriber. */
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The resolver used when none is injected: the operating system's resolver, all records. */
export const systemResolver: LookupResolver = (hostname) =>
  dnsPromises.lookup(hostname, { all: true, verbatim: true });

/**
 * Addresses inside ordinary global unicast space that are nonetheless internal cloud
 * services reachable only from inside the provider's network.
 */
const INTERNAL_SERVICE_ADDRESSES = new Set([
  // Azure WireServer / platform DNS (learn.microsoft.com "What is IP address 168.63.129.16").
  '168.63.129.16',
]);

/**
 * Name suffixes that can never denote a public destination, refused at subscription so the
 * subscriber gets a clear reason instead of a failing delivery later. The connect-time
 * check in {@link guardedLookup} remains the real defence for every other name.
 */
const NON_PUBLIC_NAME_SUFFIXES = [
  'localhost', // RFC 6761 §6.3: resolves to loopback
  'local', // RFC 6762: multicast DNS, link-local scope
  'home.arpa', // RFC 8375: residential home networks
  'internal', // ICANN 2024 reservation for private use
  'localdomain', // common resolver default search domain for the local host
];

// 2000::/3 is the only IPv6 block IANA allocates as global unicast (RFC 4291 §2.4,
// RFC 3587); everything else (IPv4-compatible ::/96, discard 100::/64, ULA fc00::/7,
// link-local fe80::/10, multicast ff00::/8, 5f00::/16 SRv6 …) is not a public destination.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
// RFC 6052 §2.1 well-known NAT64 prefix; the IPv4 address sits in the last 32 bits.
const NAT64_WELL_KNOWN_V6 = ipaddr.parseCIDR('64:ff9b::/96');
// ipaddr.js (and inet_ntop) write the deprecated IPv4-compatible form (RFC 4291 §2.5.5.1)
// as `::a.b.c.d`, and ipaddr.js then treats it as IPv4-mapped. It is neither mapped nor
// routable, so it is refused before ipaddr.js sees it.
const IPV4_COMPATIBLE_TEXT = /^::(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * Decides whether `address` is an ordinary global unicast address that webhooks may call.
 *
 * Accepts only the canonical textual forms that `net.isIP` accepts (dotted-quad IPv4, RFC
 * 5952-style IPv6), i.e. what a resolver or the WHATWG URL parser produces; anything else
 * (octal, hex, short IPv4, zone identifiers, names) is refused, so the verdict can never
 * differ from the address the socket would use.
 *
 * Refused: RFC 1918 private, loopback, link-local (169.254/16 incl. the 169.254.169.254
 * metadata service; fe80::/10), CGNAT 100.64/10 (incl. Alibaba metadata 100.100.100.200),
 * unique-local fc00::/7 (incl. AWS `fd00:ec2::254`), multicast, unspecified, broadcast,
 * reserved / benchmarking / documentation / AS112 / AMT ranges (ipaddr.js special ranges),
 * IPv6 outside 2000::/3, and known internal cloud services in public space. IPv4-mapped
 * (::ffff:0:0/96) is judged as the IPv4 inside; NAT64 64:ff9b::/96, 6to4 2002::/16 and
 * Teredo 2001::/32 pass only when every IPv4 address embedded in them is itself public.
 *
 * @returns `true` only for public addresses; never throws.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0 || address.includes('%') || IPV4_COMPATIBLE_TEXT.test(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // `process` turns IPv4-mapped IPv6 (::ffff:a.b.c.d) into the IPv4 it carries.
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  return parsed.kind() === 'ipv4' ? isPublicV4(parsed as ipaddr.IPv4) : isPublicV6(parsed as ipaddr.IPv6);
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  // ipaddr.js names every IANA special-purpose block (RFC 6890) it knows; only the
  // remainder, 'unicast', is public.
  return address.range() === 'unicast' && !INTERNAL_SERVICE_ADDRESSES.has(address.toString());
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  const word = (i: number): number => parts[i] ?? 0;
  const v4 = (high: number, low: number): ipaddr.IPv4 =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'unicast':
      return address.match(GLOBAL_UNICAST_V6);
    case 'rfc6052':
      // Only the well-known /96 has the IPv4 in the last 32 bits; the local-use prefix
      // 64:ff9b:1::/48 (RFC 8215) is by definition local, so it is refused outright.
      return address.match(NAT64_WELL_KNOWN_V6) && isPublicV4(v4(word(6), word(7)));
    case '6to4':
      // RFC 3056 §2: 2002:V4ADDR::/48, the IPv4 address in bits 16–47.
      return isPublicV4(v4(word(1), word(2)));
    case 'teredo':
      // RFC 4380 §4: server IPv4 in bits 32–63, client IPv4 bit-inverted in bits 96–127.
      return isPublicV4(v4(word(2), word(3))) && isPublicV4(v4(~word(6) & 0xffff, ~word(7) & 0xffff));
    default:
      return false;
  }
}

/**
 * Syntactic check of a webhook URL, run when a subscription is created and before each
 * delivery. Performs no I/O: host names are judged later, after resolution, by
 * {@link guardedLookup}.
 *
 * Requires an absolute `https:` URL (`http:` also when `allowPrivate`), no user name or
 * password, and a host. An IP-literal host, in any notation the WHATWG URL parser accepts
 * (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, `[::ffff:127.0.0.1]` …), arrives here
 * already normalised by the parser and is judged by {@link isPublicAddress} at once. Names
 * that can only be local (single-label, `localhost`, `*.local`, `*.internal`, `*.home.arpa`)
 * are refused too, unless `allowPrivate`.
 *
 * @returns the parsed URL, or a human-readable reason; never throws.
 */
export function checkWebhookUrl(url: string, options: DestinationOptions): WebhookUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && options.allowPrivate)) {
    return { ok: false, reason: 'the URL must use https' };
  }
  // Credentials in the URL would be sent on every delivery and shown in the delivery log.
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'the URL must not contain a user name or password' };
  }
  const host = parsed.hostname;
  if (host === '') return { ok: false, reason: 'the URL must have a host' };
  if (options.allowPrivate) return { ok: true, url: parsed };

  // The WHATWG parser has already rewritten every IPv4 notation to a dotted quad and every
  // IPv6 literal to its compressed form in brackets.
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    return isPublicAddress(literal)
      ? { ok: true, url: parsed }
      : { ok: false, reason: 'the destination address is not a public internet address' };
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (!name.includes('.')) {
    // No public host has a single-label name; the resolver would try its search domains.
    return { ok: false, reason: 'the host name must be a fully qualified public domain name' };
  }
  if (NON_PUBLIC_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return { ok: false, reason: 'the host name is reserved for local networks' };
  }
  return { ok: true, url: parsed };
}

/**
 * At subscription, after {@link checkWebhookUrl}: a host name that resolves to a non-public
 * address (e.g. a wildcard DNS name for 127.0.0.1) is refused at once. A name that does not
 * resolve within `timeoutMs` is let through: DNS may be unreachable from where the API runs,
 * and every delivery judges the addresses again at connect time ({@link guardedLookup}).
 *
 * @returns a reason to refuse, or `null`; never throws.
 */
export async function resolvedHostProblem(hostname: string, resolver: LookupResolver, timeoutMs: number): Promise<string | null> {
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<readonly LookupAddress[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
    timer.unref();
  });
  try {
    const addresses = await Promise.race([resolver(hostname).catch(() => []), timeout]);
    return addresses.some(({ address }) => !isPublicAddress(address)) ? 'the host name resolves to an address that is not a public internet address' : null;
  } finally {
    clearTimeout(timer);
  }
}

/** Builds an error {@link guardedLookup} reports; messages are safe for the delivery log. */
function lookupError(code: string, message: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(message);
  error.code = code;
  return error;
}

function requestedFamily(options: LookupOptions): 0 | 4 | 6 {
  const family = options.family;
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * Builds a `lookup` function for `net.connect` / `tls.connect` (and so for undici's
 * `connect: { lookup }`) that resolves with `resolver` and refuses the connection unless
 * EVERY address the name resolves to is public (see {@link isPublicAddress}); with
 * `allowPrivate` every address is allowed.
 *
 * The checked addresses are handed straight to the socket, so it connects to an address
 * that was judged, never to one from a second resolution (DNS rebinding). Honours
 * `options.all` (list result, as used by Node's happy-eyeballs `autoSelectFamily`) and
 * `options.family` (4 or 6 filter, applied after judging all addresses).
 *
 * Failure modes, reported through the callback (never thrown): a refused destination gives
 * an error with `code` {@link WEBHOOK_DESTINATION_ERROR_CODE}, whose message names the host
 * but not the resolved addresses (so the delivery log is no oracle for internal DNS);
 * resolver failures are passed through (`ENOTFOUND`, …); an empty answer gives `ENOTFOUND`.
 *
 * @param resolver defaults to {@link systemResolver}.
 */
export function guardedLookup(
  resolver: LookupResolver = systemResolver,
  options: DestinationOptions,
): LookupFunction {
  const allowPrivate = options.allowPrivate;
  return (hostname, lookupOptions, callback) => {
    const family = requestedFamily(lookupOptions);
    const literalFamily = isIP(hostname);
    const resolution: Promise<readonly LookupAddress[]> =
      literalFamily !== 0
        ? Promise.resolve([{ address: hostname, family: literalFamily }])
        : Promise.resolve().then(() => resolver(hostname));
    resolution.then(
      (answer) => {
        if (!Array.isArray(answer) || answer.length === 0) {
          callback(lookupError('ENOTFOUND', `no address found for ${hostname}`), []);
          return;
        }
        const addresses: LookupAddress[] = answer.map((entry) => ({
          address: entry.address,
          family: isIP(entry.address),
        }));
        if (!allowPrivate && !addresses.every((entry) => isPublicAddress(entry.address))) {
          const message = `webhook destination refused: ${hostname} resolves to a non-public address`;
          callback(lookupError(WEBHOOK_DESTINATION_ERROR_CODE, message), []);
          return;
        }
        const usable = addresses.filter((entry) => entry.family !== 0 && (family === 0 || entry.family === family));
        const first = usable[0];
        if (first === undefined) {
          const wanted = family === 0 ? 'usable' : `IPv${family}`;
          callback(lookupError('ENOTFOUND', `no ${wanted} address found for ${hostname}`), []);
          return;
        }
        if (lookupOptions.all === true) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), []);
      },
    );
  };
}
