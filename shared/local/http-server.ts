import { serve, type ServerType } from '@hono/node-server';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';

/**
 * Time limits of the local HTTP server (`npm start` and the tests), so a slow or silent
 * client cannot hold a connection and its memory forever. In AWS, API Gateway receives
 * the request before the Lambda runs (30 s integration timeout), so these apply locally only.
 */
export const LOCAL_SERVER_LIMITS = {
  /** The request line and headers must arrive within this time. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included, must arrive within this time: a trickled body is cut with 408. */
  requestTimeoutMs: 15_000,
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: 5_000,
  /** How often the server looks for requests past their deadline (Node's default is 30 s). */
  connectionsCheckingIntervalMs: 1_000,
} as const;

type Fetch = Parameters<typeof serve>[0]['fetch'];

/** Serves `fetch` on `hostname:port` with the limits above; resolves once listening. */
export function serveLocal(options: { fetch: Fetch; port: number; hostname: string }): Promise<{ server: ServerType; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const server = serve({
      ...options,
      serverOptions: {
        headersTimeout: LOCAL_SERVER_LIMITS.headersTimeoutMs,
        requestTimeout: LOCAL_SERVER_LIMITS.requestTimeoutMs,
        connectionsCheckingInterval: LOCAL_SERVER_LIMITS.connectionsCheckingIntervalMs,
      },
    }, (address) => resolve({ server, address }));
    // A taken port (EADDRINUSE) fails the start instead of crashing the process.
    (server as Server).once('error', reject);
    (server as Server).keepAliveTimeout = LOCAL_SERVER_LIMITS.keepAliveTimeoutMs;
    (server as Server).on('clientError', answerClientError);
    (server as Server).prependListener('request', closeWhenAnsweredEarly);
  });
}

/**
 * An answer written before its request's body has all arrived (a 413 past a body limit, a
 * refusal before reading) says `Connection: close` and closes the connection: the adapter
 * drains the rest of the body for a moment, then destroys the socket, and a client that kept
 * the connection alive would send its next request into that closing socket ("other side
 * closed"). Patched before the app's listener runs, so it applies to every answer.
 */
function closeWhenAnsweredEarly(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!request.complete) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * Node's own answers to requests it cannot hand to the app (timeouts, malformed or
 * oversized headers), in the service's JSON error shape. Written only while no response has
 * started on the socket (keep-alive connections included); the connection is closed either way.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }) {
  // Node's own check (socketOnError): the response in flight on this socket, if any, has not started.
  if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? [408, 'Request Timeout', `request: was not received in time (headers within ${LOCAL_SERVER_LIMITS.headersTimeoutMs / 1000} s, the whole request within ${LOCAL_SERVER_LIMITS.requestTimeoutMs / 1000} s)`]
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers: are too large']
      : [400, 'Bad Request', 'request: is not a valid HTTP request'];
  const body = JSON.stringify({ error: { code: status, message } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
