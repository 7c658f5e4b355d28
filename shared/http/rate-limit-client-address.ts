import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Context } from 'hono';

/** What the Lambda adapter (API Gateway HTTP API, payload v2) and the local Node server put in `c.env`. */
interface ConnectionBindings {
  requestContext?: { http?: { sourceIp?: string } };
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The address rate limits count a request against: API Gateway's `sourceIp` in Lambda, the
 * socket's peer locally. `X-Forwarded-For` is never read (any client can send it); behind
 * a proxy of your own, every client shares the proxy's address.
 */
export function clientAddress(c: Context): string {
  const env = c.env as ConnectionBindings | undefined;
  return addressSubject(env?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress);
}

/**
 * IPv4 addresses count one by one (IPv4-mapped IPv6 as IPv4); IPv6 addresses by /64, the
 * smallest block a subscriber is usually given, so hopping inside one's own /64 does not
 * reset the count. Requests with no address at all share one counter.
 */
export function addressSubject(raw: string | undefined): string {
  // Plain dotted IPv4 (API Gateway's sourceIp, most sockets) is already its own subject:
  // every authenticated request asks, and parsing it costs more than the rest of the check.
  if (raw && isIPv4(raw)) return raw;
  if (!raw || !ipaddr.isValid(raw)) return 'unknown';
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':');
  return `${prefix}::/64`;
}
