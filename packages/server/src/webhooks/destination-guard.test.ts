import type { LookupAddress, LookupOptions } from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  resolvedHostProblem,
  WEBHOOK_DESTINATION_ERROR_CODE,
} from './destination-guard.js';
import type { LookupResolver } from './destination-guard.js';
import { destinationPolicy } from './policy.js';

// Everything here is decided without connecting: only pure functions and `guardedLookup`
// with an injected resolver are called, so no test sends traffic anywhere, and the real
// DNS is never asked.

const closed = { allowPrivate: false };
const open = { allowPrivate: true };

/** An injected resolver: a fixed table; unknown names fail like the system resolver. */
function tableResolver(table: Record<string, string[]>): LookupResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

interface LookupOutcome {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

/** Calls the lookup function exactly as `net.connect` does and captures the callback. */
function lookup(
  resolver: LookupResolver,
  hostname: string,
  options: LookupOptions = { all: true },
  destination = closed,
): Promise<LookupOutcome> {
  const fn = guardedLookup(resolver, destination);
  return new Promise((resolve) => {
    fn(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

// Teredo (RFC 4380 §4): 2001:0:<server v4>:<flags>:<port ^ 0xffff>:<client v4 ^ 0xffffffff>;
// 4136:e378 is the public server 65.54.227.120.
const teredo = (client: string): string => {
  const [a, b, c, d] = client.split('.').map(Number) as [number, number, number, number];
  const hex = (high: number, low: number): string => ((~((high << 8) | low)) & 0xffff).toString(16);
  return `2001:0:4136:e378:8000:63bf:${hex(a, b)}:${hex(c, d)}`;
};

describe('checkWebhookUrl refuses hostile destinations without I/O', () => {
  // [url, why it is hostile]
  const hostile: [string, string][] = [
    ['https://127.0.0.1/', 'loopback'],
    ['https://2130706433/', 'loopback, decimal integer'],
    ['https://0177.0.0.1/', 'loopback, octal'],
    ['https://0x7f.1/', 'loopback, hex + short form'],
    ['https://127.1/', 'loopback, short form'],
    ['https://0x7f000001/', 'loopback, hex integer'],
    ['https://017700000001/', 'loopback, octal integer'],
    ['https://%31%32%37.0.0.1/', 'loopback, percent-encoded'],
    ['https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', 'loopback, full-width digits (UTS 46 mapping)'],
    ['https://127.0.0.1./', 'loopback, trailing dot'],
    ['https://127.0.0.1:8443/hook', 'loopback with port'],
    ['https://0/', 'unspecified 0.0.0.0 (connects to the local host)'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://10.0.0.1/', 'RFC 1918 10/8'],
    ['https://172.16.5.4/', 'RFC 1918 172.16/12'],
    ['https://172.31.255.255/', 'RFC 1918 172.16/12, top'],
    ['https://192.168.1.1/', 'RFC 1918 192.168/16'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local, AWS/GCP/Azure metadata'],
    ['https://0xa9fea9fe/', 'metadata, hex integer'],
    ['https://100.100.100.200/', 'CGNAT, Alibaba metadata'],
    ['https://100.64.0.1/', 'CGNAT 100.64/10'],
    ['https://192.0.0.192/', 'IETF protocol assignments, Oracle metadata'],
    ['https://168.63.129.16/', 'Azure WireServer'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://255.255.255.255/', 'broadcast'],
    ['https://192.0.2.1/', 'documentation TEST-NET-1'],
    ['https://198.18.0.1/', 'benchmarking'],
    ['https://240.0.0.1/', 'reserved 240/4'],
    ['https://[::1]/', 'IPv6 loopback'],
    ['https://[::]/', 'IPv6 unspecified'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback, dotted'],
    ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
    ['https://[0:0:0:0:0:ffff:a00:1]/', 'IPv4-mapped 10.0.0.1, uncompressed'],
    ['https://[::ffff:169.254.169.254]/', 'IPv4-mapped metadata'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible (deprecated) loopback'],
    ['https://[::ffff:0:7f00:1]/', 'IPv4-translated (RFC 6145) loopback'],
    ['https://[64:ff9b::a00:1]/', 'NAT64 of 10.0.0.1'],
    ['https://[64:ff9b::127.0.0.1]/', 'NAT64 of loopback'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'NAT64 of metadata'],
    ['https://[64:ff9b:1::808:808]/', 'local-use NAT64 (RFC 8215)'],
    ['https://[2002:a00:1::]/', '6to4 of 10.0.0.1'],
    ['https://[2002:7f00:1::1]/', '6to4 of loopback'],
    ['https://[2002:a9fe:a9fe::]/', '6to4 of metadata'],
    [`https://[${teredo('10.0.0.1')}]/`, 'Teredo, private client'],
    [`https://[${teredo('127.0.0.1')}]/`, 'Teredo, loopback client'],
    ['https://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/', 'Teredo, private server'],
    ['https://[fd00:ec2::254]/', 'unique-local, AWS metadata'],
    ['https://[fc00::1]/', 'unique-local fc00::/7'],
    ['https://[fe80::1]/', 'IPv6 link-local'],
    ['https://[fec0::1]/', 'deprecated site-local'],
    ['https://[ff02::1]/', 'IPv6 multicast'],
    ['https://[2001:db8::1]/', 'IPv6 documentation'],
    ['https://[100::1]/', 'IPv6 discard'],
    ['https://[3fff::1]/', 'IPv6 documentation (RFC 9637)'],
    ['http://hooks.example.com/x', 'plain http without allowPrivate'],
    ['https://user:secret@hooks.example.com/x', 'credentials in the URL'],
    ['https://token@hooks.example.com/x', 'user name in the URL'],
    ['https://localhost/', 'localhost'],
    ['https://localhost./', 'localhost, trailing dot'],
    ['https://LOCALHOST/', 'localhost, upper case'],
    ['https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/', 'localhost, full-width letters'],
    ['https://api.localhost/', '*.localhost (RFC 6761)'],
    ['https://printer.local/', 'mDNS .local'],
    ['https://metadata.google.internal/', '.internal (GCP metadata)'],
    ['https://router.home.arpa/', 'home.arpa'],
    ['https://metadata/', 'single-label name (search domains)'],
    ['ftp://hooks.example.com/', 'other scheme'],
    ['file:///etc/passwd', 'file scheme'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['//hooks.example.com/x', 'relative URL'],
    ['https://1.2.3.4.5/', 'invalid IPv4 literal'],
  ];

  it('has a large hostile table', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(60);
  });

  it.each(hostile)('refuses %s (%s)', (url) => {
    const result = checkWebhookUrl(url, closed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/\S/);
  });

  it('gives reasons a subscriber can act on', () => {
    expect(checkWebhookUrl('http://hooks.example.com/', closed)).toEqual({ ok: false, reason: 'the URL must use https' });
    expect(checkWebhookUrl('https://a:b@hooks.example.com/', closed)).toEqual({
      ok: false,
      reason: 'the URL must not contain a user name or password',
    });
    expect(checkWebhookUrl('https://2130706433/', closed)).toEqual({
      ok: false,
      reason: 'the destination address is not a public internet address',
    });
    expect(checkWebhookUrl('not a url', closed)).toEqual({ ok: false, reason: 'not a valid absolute URL' });
  });
});

describe('checkWebhookUrl accepts public destinations', () => {
  it.each([
    'https://hooks.example.com/x',
    'https://hooks.example.com:8443/path?q=1',
    'https://HOOKS.Example.COM./x',
    'https://8.8.8.8/',
    'https://93.184.215.14/hook',
    'https://[2606:4700:4700::1111]/',
    'https://[64:ff9b::808:808]/', // NAT64 of a public address (DNS64 networks)
    'https://[2002:808:808::1]/', // 6to4 of a public address
    `https://[${teredo('8.8.8.8')}]/`, // Teredo, public server and client
  ])('accepts %s', (url) => {
    const result = checkWebhookUrl(url, closed);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.href).toBe(new URL(url).href);
  });

  it('returns the normalised URL', () => {
    const result = checkWebhookUrl('https://HOOKS.example.com/a/../x', closed);
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/x');
  });

  it('with allowPrivate, permits http and loopback/private targets (integration tests)', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:3000/', 'https://[::1]:9443/', 'http://10.0.0.5/']) {
      expect(checkWebhookUrl(url, open).ok, url).toBe(true);
    }
    // The scheme and credential rules still hold.
    expect(checkWebhookUrl('ftp://127.0.0.1/', open).ok).toBe(false);
    expect(checkWebhookUrl('http://u:p@127.0.0.1/', open).ok).toBe(false);
  });
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.255.255.255', '172.16.0.0', '192.168.0.1', '169.254.169.254',
    '100.100.100.200', '100.127.255.255', '0.0.0.0', '0.1.2.3', '255.255.255.255', '224.0.0.251',
    '192.0.2.10', '198.51.100.7', '203.0.113.9', '198.19.255.255', '192.88.99.1', '240.1.2.3',
    '::1', '::', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::10.0.0.1', '::8.8.8.8',
    '::7f00:1', 'fe80::1', 'fe80::1%eth0', 'fd00:ec2::254', 'fc00::', 'ff02::1', '2001:db8::1',
    '64:ff9b::7f00:1', '64:ff9b::c0a8:101', '2002:c0a8:101::', teredo('192.168.1.1'),
    // Not canonical or not an address at all: refused rather than guessed at.
    '0177.0.0.1', '127.1', '2130706433', '0x7f.0.0.1', 'localhost', '', ' 8.8.8.8', '8.8.8.8/32', '[::1]',
  ])('refuses %j', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
  const hex16 = (high: number, low: number): string => ((high << 8) | low).toString(16);

  it('judges IPv4-mapped, NAT64 and 6to4 forms exactly like the IPv4 inside', () => {
    fc.assert(
      fc.property(octets, ([a, b, c, d]) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const expected = isPublicAddress(v4);
        expect(isPublicAddress(`::ffff:${v4}`)).toBe(expected);
        expect(isPublicAddress(`::ffff:${hex16(a, b)}:${hex16(c, d)}`)).toBe(expected);
        expect(isPublicAddress(`64:ff9b::${hex16(a, b)}:${hex16(c, d)}`)).toBe(expected);
        expect(isPublicAddress(`2002:${hex16(a, b)}:${hex16(c, d)}::1`)).toBe(expected);
        expect(isPublicAddress(teredo(v4))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses every address of the private, loopback, link-local and CGNAT blocks', () => {
    const inBlock = (first: fc.Arbitrary<number>, second: fc.Arbitrary<number>) =>
      fc.tuple(first, second, fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
    const nonPublic = fc.oneof(
      inBlock(fc.constant(10), fc.nat(255)),
      inBlock(fc.constant(127), fc.nat(255)),
      inBlock(fc.constant(172), fc.integer({ min: 16, max: 31 })),
      inBlock(fc.constant(192), fc.constant(168)),
      inBlock(fc.constant(169), fc.constant(254)),
      inBlock(fc.constant(100), fc.integer({ min: 64, max: 127 })),
      inBlock(fc.constant(0), fc.nat(255)),
      inBlock(fc.integer({ min: 224, max: 255 }), fc.nat(255)),
    );
    fc.assert(
      fc.property(nonPublic, (address) => {
        expect(isPublicAddress(address)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('guardedLookup', () => {
  const resolver = tableResolver({
    'hooks.example.com': ['93.184.215.14'],
    'dual.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'rebind.example.com': ['127.0.0.1'],
    'internal.example.com': ['10.1.2.3'],
    'metadata.example.com': ['169.254.169.254'],
    'alibaba.example.com': ['100.100.100.200'],
    'aws6.example.com': ['fd00:ec2::254'],
    'loop6.example.com': ['::1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'mapped-hex.example.com': ['::ffff:a00:1'],
    'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
    'sixtofour.example.com': ['2002:c0a8:101::1'],
    'compat.example.com': ['::10.0.0.1'],
    'unspecified.example.com': ['0.0.0.0'],
    'mixed.example.com': ['93.184.215.14', '10.0.0.1'],
    'mixed-order.example.com': ['192.168.0.10', '93.184.215.14'],
    'mixed6.example.com': ['2606:4700:4700::1111', 'fe80::1'],
    'octal.example.com': ['0177.0.0.1'],
    'garbage.example.com': ['not-an-address'],
    'empty.example.com': [],
  });

  const hostileNames = [
    'rebind.example.com',
    'internal.example.com',
    'metadata.example.com',
    'alibaba.example.com',
    'aws6.example.com',
    'loop6.example.com',
    'mapped.example.com',
    'mapped-hex.example.com',
    'nat64.example.com',
    'sixtofour.example.com',
    'compat.example.com',
    'unspecified.example.com',
    'mixed.example.com',
    'mixed-order.example.com',
    'mixed6.example.com',
    'octal.example.com',
    'garbage.example.com',
  ];

  it.each(hostileNames)('refuses %s (resolves to a non-public address), in both callback styles', async (hostname) => {
    for (const options of [{ all: true }, {}, { family: 4 }, { family: 6, all: true }] satisfies LookupOptions[]) {
      const outcome = await lookup(resolver, hostname, options);
      expect(outcome.error?.code).toBe(WEBHOOK_DESTINATION_ERROR_CODE);
      expect(outcome.error?.message).toContain(hostname);
    }
  });

  it('does not reveal the resolved addresses in the refusal (no internal-DNS oracle)', async () => {
    const outcome = await lookup(resolver, 'internal.example.com');
    expect(outcome.error?.message).not.toContain('10.1.2.3');
  });

  it('hands back exactly the checked public address, single and all', async () => {
    expect(await lookup(resolver, 'hooks.example.com', { all: true })).toEqual({
      error: null,
      address: [{ address: '93.184.215.14', family: 4 }],
      family: undefined,
    });
    expect(await lookup(resolver, 'hooks.example.com', {})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });

  it('filters by the requested family after judging every address', async () => {
    expect(await lookup(resolver, 'dual.example.com', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
    const v4only = await lookup(resolver, 'hooks.example.com', { family: 6 });
    expect(v4only.error?.code).toBe('ENOTFOUND');
  });

  it('resolves once per connection and never consults the system resolver', async () => {
    const counted = tableResolver({ 'hooks.example.com': ['93.184.215.14'] });
    await lookup(counted, 'hooks.example.com');
    expect(counted.calls).toEqual(['hooks.example.com']);
  });

  it('judges an IP literal handed to it without resolving', async () => {
    const counted = tableResolver({});
    expect((await lookup(counted, '127.0.0.1')).error?.code).toBe(WEBHOOK_DESTINATION_ERROR_CODE);
    expect(await lookup(counted, '8.8.8.8', {})).toEqual({ error: null, address: '8.8.8.8', family: 4 });
    expect(counted.calls).toEqual([]);
  });

  it('passes resolver failures and empty answers through as errors', async () => {
    expect((await lookup(resolver, 'unknown.example.com')).error?.code).toBe('ENOTFOUND');
    expect((await lookup(resolver, 'empty.example.com')).error?.code).toBe('ENOTFOUND');
    const throwing: LookupResolver = () => {
      throw new Error('resolver bug');
    };
    expect((await lookup(throwing, 'hooks.example.com')).error?.message).toBe('resolver bug');
  });

  it('with allowPrivate, returns private and loopback addresses', async () => {
    expect(await lookup(resolver, 'rebind.example.com', {}, open)).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    expect((await lookup(resolver, 'mixed.example.com', { all: true }, open)).address).toHaveLength(2);
  });
});

describe('destinationPolicy at subscription', () => {
  const resolver: LookupResolver = async (hostname) => {
    if (hostname === 'rebind.example.com') return [{ address: '93.184.215.14', family: 4 }, { address: '127.0.0.1', family: 4 }];
    if (hostname === 'public.example.com') return [{ address: '93.184.215.14', family: 4 }];
    if (hostname === 'slow.example.com') return new Promise<never>(() => undefined);
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };

  it('refuses a host name with any non-public address, lets public and unresolvable names through', async () => {
    const policy = destinationPolicy(false, resolver);
    expect(await policy.check('https://rebind.example.com/hook')).toEqual({ ok: false, reason: expect.stringMatching(/resolves to an address that is not a public/) });
    expect(await policy.check('https://public.example.com/hook')).toEqual({ ok: true, url: 'https://public.example.com/hook' });
    // Unresolvable here: every delivery resolves again and judges at connect time.
    expect(await policy.check('https://unknown.example.com/hook')).toEqual({ ok: true, url: 'https://unknown.example.com/hook' });
    expect(await policy.check('https://93.184.215.14/hook')).toMatchObject({ ok: true });
    expect(await policy.check('http://public.example.com/hook')).toMatchObject({ ok: false });
  });

  it('does not wait on a resolver that never answers for more than its timeout', async () => {
    const started = Date.now();
    expect(await resolvedHostProblem('slow.example.com', resolver, 50)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('asks no resolver when private destinations are allowed', async () => {
    const policy = destinationPolicy(true, async () => {
      throw new Error('must not resolve');
    });
    expect(await policy.check('http://127.0.0.1:8080/hook')).toEqual({ ok: true, url: 'http://127.0.0.1:8080/hook' });
    expect(await policy.check('https://rebind.example.com/hook')).toMatchObject({ ok: true });
  });
});
