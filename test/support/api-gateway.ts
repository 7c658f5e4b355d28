import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useLoopbackServer } from './loopback-server.ts';

/** A Lambda entry of an HTTP app, as API Gateway (HTTP API, payload v2) invokes it. */
export type GatewayHandler = (event: any, context?: any) => Promise<{ statusCode: number; body?: string; isBase64Encoded?: boolean; headers?: Record<string, string>; cookies?: string[] }>;

/** Lambda's limit on a synchronous invocation's answer: 6 MB of the result's JSON (stated here apart from the service's own constant, which this checks). */
export const LAMBDA_ANSWER_BYTES = 6 * 1024 * 1024;

export interface GatewaySetup {
  /** Lambda entries by path prefix. */
  routes: Record<string, GatewayHandler>;
  /** Lambda's answer limit, lower to test with small answers (the entries must be told the same). */
  answerLimitBytes?: number;
}

/**
 * A loopback HTTP server speaking for API Gateway in front of Lambda entries, by path prefix:
 * each request becomes a payload v2 event, each result an HTTP answer. Where the real pair
 * fails, so does this one: a result over Lambda's answer limit is a failed invocation, which
 * the HTTP API answers with 500 `{"message":"Internal Server Error"}` (no emulator of
 * API Gateway and Lambda runs here; this is their wire behaviour for what the tests use).
 * `setup` is read per request (entries built in a test's beforeAll).
 */
export function useApiGateway(setup: () => GatewaySetup) {
  return useLoopbackServer((req, res) => {
    void invoke(setup(), req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Internal Server Error' }));
      if (!String(error).includes('answer limit')) console.error('api-gateway emulation:', error);
    });
  });
}

async function invoke({ routes, answerLimitBytes = LAMBDA_ANSWER_BYTES }: GatewaySetup, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://gateway');
  const handler = Object.entries(routes).find(([prefix]) => url.pathname.startsWith(prefix))?.[1];
  if (!handler) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Payload v2 joins repeated headers with commas and moves cookies to `cookies`.
    if (name === 'cookie') cookies.push(...[value].flat().join('; ').split(/;\s*/));
    else headers[name] = [value].flat().join(',');
  }
  const host = headers.host ?? '127.0.0.1';
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: '000000000000', apiId: 'local', domainName: host, domainPrefix: host.split('.')[0], stage: '$default',
      requestId: randomUUID(), routeKey: '$default', time: new Date().toUTCString(), timeEpoch: Date.now(),
      http: { method: req.method ?? 'GET', path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
    },
    ...(body.length ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
  const result = await handler(event);
  if (Buffer.byteLength(JSON.stringify(result)) > answerLimitBytes) throw new Error('the result is over Lambda\'s answer limit');
  const out: Record<string, string | string[]> = { ...result.headers };
  if (result.cookies?.length) out['set-cookie'] = result.cookies;
  const bytes = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(result.statusCode, { ...out, 'content-length': String(bytes.length) }).end(bytes);
}
