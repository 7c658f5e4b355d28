import { config } from '../config.ts';
import { egressFetch } from '../net/egress.ts';
import { isEgressError } from '../net/egress-error.ts';
import type { OutboundHandler } from './runtime.ts';

export const OUTBOUND_TIMEOUT_MS = 15_000;
export const OUTBOUND_MAX_BYTES = 8 * 1024 * 1024;

/**
 * What a script's `fetch` reaches: every URL through the egress guard (shared/net/egress.ts:
 * checked and pinned addresses, redirects re-checked, time and byte caps), as any URL someone
 * gave the service. The service's own API (`environment.apiEndpoint`, the configured
 * PUBLIC_API_URL, which may be a private address locally) is its trusted origin.
 * At most `subrequests` requests per run. A refusal or failure is thrown here and answered to
 * the script by runtime.ts as a 502 naming the reason (never a stack), with a line in the trace.
 */
export function guardedOutbound(subrequests: number): OutboundHandler {
  let made = 0;
  return async (request) => {
    if (++made > subrequests) throw new Error(`fetch: more than ${subrequests} outbound requests in one run`);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (!name.startsWith('mf-') && !/^(host|content-length|connection|transfer-encoding)$/i.test(name)) headers[name] = value;
    });
    try {
      const res = await egressFetch({
        url: request.url, label: 'fetch', method: request.method, headers, body,
        timeoutMs: OUTBOUND_TIMEOUT_MS, maxBytes: OUTBOUND_MAX_BYTES, maxRedirects: 0, trustedOrigin: new URL(config.apiUrl).origin,
      });
      const bytes = await res.bytes();
      return new Response(res.status === 204 || res.status === 304 ? null : new Uint8Array(bytes), {
        status: res.status, statusText: res.statusText,
        headers: Object.entries(res.headers).filter(([name]) => !/^(content-length|transfer-encoding|connection|content-encoding)$/.test(name)),
      });
    } catch (error) {
      if (isEgressError(error)) throw new Error(error.message);
      throw error;
    }
  };
}
