/**
 * EGRESS_ALLOWLIST: the non-public destinations outbound requests may still reach
 * (a self-hosted Git server on the VPC, the test suite's loopback servers). Empty by
 * default. Comma-separated entries, each optionally followed by `:port`:
 *   git.internal          a host name (exact, case-insensitive)
 *   10.1.2.3   [fd00::1]  an address (IPv6 in brackets when a port follows)
 *   10.0.0.0/8 fd00::/8   a CIDR range (no port)
 *   127.0.0.1:8080 [::1]:8080 git.internal:443
 * Entries that do not parse are ignored (and reported once): a typo closes, never opens.
 */
import ipaddr from 'ipaddr.js';

interface Entry {
  host?: string;
  range?: [ipaddr.IPv4 | ipaddr.IPv6, number];
  port?: number;
}

let cached: { raw: string; entries: Entry[] } | undefined;

function entries(): Entry[] {
  const raw = process.env.EGRESS_ALLOWLIST ?? '';
  if (cached?.raw !== raw) cached = { raw, entries: parseAllowlist(raw) };
  return cached.entries;
}

export function parseAllowlist(raw: string): Entry[] {
  const out: Entry[] = [];
  for (const text of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const entry = parseEntry(text);
    if (entry) out.push(entry);
    else console.warn(JSON.stringify({ level: 'warn', message: 'EGRESS_ALLOWLIST entry ignored', entry: text }));
  }
  return out;
}

function parseEntry(text: string): Entry | undefined {
  if (text.includes('/')) {
    try {
      return { range: ipaddr.parseCIDR(text) };
    } catch {
      return undefined;
    }
  }
  // [v6], [v6]:port, v4, v4:port, host, host:port; a bare IPv6 address has several colons.
  let name: string | undefined;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) [, name, portText] = bracketed;
  else if (ipaddr.IPv6.isValid(text)) name = text;
  else [, name, portText] = /^([^:]+)(?::(\d+))?$/.exec(text) ?? [];
  if (!name) return undefined;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(port > 0 && port < 65536)) return undefined;
  if (ipaddr.isValid(name)) {
    const address = ipaddr.process(name);
    return { range: [address, address.kind() === 'ipv4' ? 32 : 128], port };
  }
  if (!/^[a-z0-9.-]+$/i.test(name)) return undefined;
  return { host: name.toLowerCase().replace(/\.$/, ''), port };
}

/** Whether EGRESS_ALLOWLIST lets a request to `hostname:port` reach `address`. */
export function isAllowListed(hostname: string, address: string, port: number): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const ip = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  return entries().some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false;
    if (entry.host !== undefined) return entry.host === host;
    const [base, bits] = entry.range!;
    return base.kind() === ip.kind() && ip.match(base, bits);
  });
}
