/**
 * The egress guard itself (shared/net): which addresses it accepts, the allow-list
 * format, and what egressFetch does on real sockets — pinning, credentials, redirects,
 * the byte cap while streaming (bounded memory) and the time cap.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyAddress } from '../shared/net/address-policy.ts';
import { isAllowListed, parseAllowlist } from '../shared/net/allowlist.ts';
import { egressFetch } from '../shared/net/egress.ts';
import { egressDns } from '../shared/net/destination.ts';
import { EgressError } from '../shared/net/egress-error.ts';
import { startEgressFixtures, type EgressFixtures } from './support/egress-fixtures.ts';

let f: EgressFixtures;
beforeAll(async () => {
  f = await startEgressFixtures();
});
beforeEach(() => {
  process.env.EGRESS_ALLOWLIST = `127.0.0.1:${f.fixturePort}`;
});
afterAll(() => f.close());

const fetchCapped = (url: string, extra: Partial<Parameters<typeof egressFetch>[0]> = {}) =>
  egressFetch({ url, label: 'test.url', maxBytes: 1024 * 1024, timeoutMs: 5_000, ...extra });

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(EgressError);
  return error as EgressError;
}

describe('address policy', () => {
  it.each([
    ['8.8.8.8'], ['1.1.1.1'], ['2606:4700::1111'], ['64:ff9b::808:808'], ['2002:808:808::'], ['::ffff:8.8.8.8'],
  ])('accepts the public address %s', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'],
    ['10.0.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.1.1', 'link-local'], ['fe80::1', 'link-local'], ['fc00::1', 'unique-local'], ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'], ['255.255.255.255', 'broadcast'], ['240.0.0.1', 'reserved'], ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'], ['198.18.0.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'], ['::7f00:1', 'loopback'], ['2002:7f00:1::', 'loopback'], ['64:ff9b::7f00:1', 'loopback'],
    // Teredo: the client address is stored inverted (127.0.0.1 -> 80ff:fffe).
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], ['64:ff9b:1::a00:1', 'non-public'],
  ])('refuses %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toMatchObject({ kind, neverAllowed: false });
  });

  it.each([
    ['169.254.169.254'], ['fd00:ec2::254'], ['::ffff:169.254.169.254'], ['2002:a9fe:a9fe::'], ['64:ff9b::a9fe:a9fe'],
    ['169.254.170.2'], ['168.63.129.16'], ['100.100.100.200'],
  ])('never allows the metadata address %s', (address) => {
    expect(classifyAddress(address)).toMatchObject({ kind: 'cloud metadata', neverAllowed: true });
  });
});

describe('EGRESS_ALLOWLIST', () => {
  it('takes hosts, addresses and CIDR ranges, each with an optional port, and ignores what does not parse', () => {
    expect(parseAllowlist(' git.internal , 10.0.0.0/8, 127.0.0.1:8080, [::1]:9000, fd00::/8, ::1, bad entry, 10.0.0.1:99999, host:x')).toHaveLength(6);
    process.env.EGRESS_ALLOWLIST = 'git.internal, 10.0.0.0/8, 127.0.0.1:8080, [::1]:9000';
    expect(isAllowListed('git.internal', '10.9.9.9', 443)).toBe(true);
    expect(isAllowListed('GIT.internal.', '192.168.1.1', 80)).toBe(true);
    expect(isAllowListed('other', '10.200.0.1', 80)).toBe(true);
    expect(isAllowListed('other', '::ffff:10.0.0.1', 80)).toBe(true);
    expect(isAllowListed('other', '127.0.0.1', 8080)).toBe(true);
    expect(isAllowListed('other', '127.0.0.1', 8081)).toBe(false);
    expect(isAllowListed('other', '::1', 9000)).toBe(true);
    expect(isAllowListed('other', '::1', 80)).toBe(false);
    expect(isAllowListed('other', '192.168.1.1', 80)).toBe(false);
    process.env.EGRESS_ALLOWLIST = '';
    expect(isAllowListed('localhost', '127.0.0.1', 80)).toBe(false);
  });

  it('cannot open a metadata address, even inside an allow-listed range', async () => {
    process.env.EGRESS_ALLOWLIST = '169.254.0.0/16';
    expect((await failure(fetchCapped('http://169.254.169.254/latest/meta-data/'))).message)
      .toBe('test.url: 169.254.169.254 is a cloud metadata address (169.254.169.254), which is never allowed');
  });
});

describe('egressFetch', () => {
  it('connects to the checked address: a name real DNS does not know, Host header kept', async () => {
    let lookups = 0;
    const previous = egressDns.lookup;
    egressDns.lookup = async (hostname) => {
      lookups++;
      return hostname === 'pinned.egress.test' ? [{ address: '127.0.0.1', family: 4 }] : previous(hostname);
    };
    try {
      const res = await fetchCapped(`http://pinned.egress.test:${f.fixturePort}/host`);
      expect(await res.text()).toBe(`pinned.egress.test:${f.fixturePort}`);
      expect(lookups).toBe(1);
    } finally {
      egressDns.lookup = previous;
    }
  });

  it('sends URL credentials as Basic auth and drops them when a redirect leaves the origin', async () => {
    const auth = `Basic ${Buffer.from('bot:p ss@1').toString('base64')}`;
    const direct = await fetchCapped(`http://bot:p%20ss%401@127.0.0.1:${f.fixturePort}/echo-auth`);
    expect(await direct.text()).toBe(auth);
    expect(direct.url).toBe(`http://127.0.0.1:${f.fixturePort}/echo-auth`);
    const sameOrigin = await fetchCapped(f.redirectTo(`${f.fixtureUrl}/echo-auth`).replace('http://', 'http://bot:p%20ss%401@'));
    expect(await sameOrigin.text()).toBe(auth);
    process.env.EGRESS_ALLOWLIST = `127.0.0.1:${f.fixturePort},localhost:${f.fixturePort}`;
    const crossOrigin = await fetchCapped(f.redirectTo(`http://localhost:${f.fixturePort}/echo-auth`).replace('http://', 'http://bot:x@'));
    expect(await crossOrigin.text()).toBe('none');
  });

  it('follows at most 5 redirects; with maxRedirects 0 the 3xx is the answer', async () => {
    let url = `${f.fixtureUrl}/ok`;
    for (let i = 0; i < 5; i++) url = f.redirectTo(url);
    expect(await (await fetchCapped(url)).text()).toBe('ok');
    expect((await failure(fetchCapped(f.redirectTo(url)))).message).toBe('test.url: more than 5 redirects');
    const unfollowed = await fetchCapped(url, { maxRedirects: 0 });
    expect(unfollowed.status).toBe(302);
    unfollowed.cancel();
  });

  it('cuts a 100 MB stream at the cap while streaming, with bounded memory', async () => {
    const rss = process.memoryUsage().rss;
    const sentBefore = f.bigBytesSent();
    const res = await fetchCapped(`${f.fixtureUrl}/big`);
    let read = 0;
    const error = await failure((async () => {
      for await (const chunk of res.body) read += chunk.length;
    })());
    expect(error).toMatchObject({ failure: 'too-large', message: 'test.url: the response is larger than 1048576 bytes' });
    expect(read).toBeLessThanOrEqual(1024 * 1024);
    expect(f.bigBytesSent() - sentBefore).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    const error = await failure(fetchCapped(`${f.fixtureUrl}/big-declared`));
    expect(error).toMatchObject({ failure: 'too-large', message: 'test.url: the response is larger than 1048576 bytes' });
  });

  it('cuts a slow body at the total time cap', async () => {
    const started = Date.now();
    const res = await fetchCapped(`${f.fixtureUrl}/slow`, { timeoutMs: 400 });
    const error = await failure(res.text());
    expect(error).toMatchObject({ failure: 'timeout', message: 'test.url: no complete answer within 400 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports network failures by code, never by what came back', async () => {
    process.env.EGRESS_ALLOWLIST = '127.0.0.1';
    const error = await failure(fetchCapped('http://127.0.0.1:1/x'));
    expect(error).toMatchObject({ failure: 'network', message: 'test.url: 127.0.0.1 could not be reached (ECONNREFUSED)' });
  });
});
