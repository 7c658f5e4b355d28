/**
 * Where an outbound request may go: an http(s) URL (WHATWG parser, so `2130706433`,
 * `0x7f.1` and `127.1` are already `127.0.0.1` here) whose host resolves only to
 * addresses the policy accepts. The address checked is the address connected to
 * (egress.ts pins it), so a DNS answer that changes between check and use cannot matter.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './address-policy.ts';
import { isAllowListed } from './allowlist.ts';
import { EgressError } from './egress-error.ts';

export interface Destination {
  /** Host name or literal address, without IPv6 brackets. */
  hostname: string;
  port: number;
  /** Every address the host resolved to, all checked: the only ones the connection may use. */
  addresses: { address: string; family: 4 | 6 }[];
}

/** DNS used by the guard; tests swap `lookup` to make names resolve where they need. */
export const egressDns = {
  lookup: async (hostname: string): Promise<{ address: string; family: number }[]> => lookup(hostname, { all: true, verbatim: true }),
};

export const bareHostname = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
export const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** `.localhost` names are loopback by definition (RFC 6761): they never reach DNS. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/** Parses and checks the scheme: http and https only. */
export function parseEgressUrl(raw: string | URL, label: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressError('forbidden', label, 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('forbidden', label, `the ${url.protocol.replace(/:$/, '')} scheme is not allowed (http and https only)`);
  }
  return url;
}

/** Throws unless every address is acceptable for this host and port. */
function checkAddresses(hostname: string, port: number, addresses: string[], label: string, trusted = false): void {
  for (const address of addresses) {
    let verdict: ReturnType<typeof classifyAddress>;
    try {
      verdict = classifyAddress(address);
    } catch {
      verdict = { kind: 'unrecognised', neverAllowed: true };
    }
    if (!verdict) continue;
    const what = `${isIP(hostname) ? `${hostname} is` : `${hostname} resolves to`} ${/^[aeiou]/.test(verdict.kind) ? 'an' : 'a'} ${verdict.kind} address (${address}${verdict.embedded ? `, carrying ${verdict.embedded}` : ''})`;
    if (verdict.neverAllowed) throw new EgressError('forbidden', label, `${what}, which is never allowed`);
    if (!trusted && !isAllowListed(hostname, address, port)) throw new EgressError('forbidden', label, `${what} and EGRESS_ALLOWLIST does not allow it`);
  }
}

/**
 * What can be refused without DNS: the scheme, literal non-public addresses and
 * `localhost` names. For an immediate 400 at request time; the fetch checks again.
 */
export function checkEgressUrlSyntax(raw: string | URL, label: string): URL {
  const url = parseEgressUrl(raw, label);
  const hostname = bareHostname(url);
  if (isIP(hostname)) checkAddresses(hostname, portOf(url), [hostname], label);
  else if (isLocalhostName(hostname)) checkAddresses(hostname, portOf(url), ['127.0.0.1', '::1'], label);
  return url;
}

/**
 * Resolves the host and checks every address it has (a connection may use any of them).
 * `trustedOrigin`: an origin the caller itself configured (the service's own API) may be
 * private like an EGRESS_ALLOWLIST entry; never-allowed addresses stay refused.
 */
export async function resolveDestination(url: URL, label: string, trustedOrigin?: string): Promise<Destination> {
  const hostname = bareHostname(url);
  const port = portOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else if (isLocalhostName(hostname)) addresses = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
  else {
    try {
      addresses = await egressDns.lookup(hostname);
    } catch (error) {
      throw new EgressError('network', label, `${hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
  }
  if (addresses.length === 0) throw new EgressError('network', label, `${hostname} has no address`);
  checkAddresses(hostname, port, addresses.map((a) => a.address), label, trustedOrigin !== undefined && url.origin === trustedOrigin);
  return { hostname, port, addresses: addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })) };
}
