/**
 * Export's push: isomorphic-git's HTTP client contract (`request({url, method, headers, body})` ->
 * `{url, statusCode, statusMessage, headers, body}`) on top of the egress guard, so every
 * request of a push (ref discovery, the pack, each redirect) is checked, pinned to the
 * checked address and capped like any other outbound request. Clones go through relay.ts.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { egressFetch, readAll, type EgressLimits } from '../net/egress.ts';

/**
 * Caps per Git HTTP request, of the CLI's relay (relay.ts, streamed) and of isomorphic-git's
 * push (an object so tests can lower them). 1 GiB: real documentation repositories with many
 * screenshots pass 200 MB (one infrastructure project's docs: 246 MB); the git worker's /tmp
 * is sized for it (infra/constructs/workers.ts).
 */
export const gitFetchLimits: EgressLimits = { maxBytes: 1024 * 1024 * 1024, timeoutMs: 120_000, connectTimeoutMs: 10_000, maxRedirects: 5 };

async function request({ url, method, headers, body, signal }: GitHttpRequest): Promise<GitHttpResponse> {
  // Request bodies (upload-pack wants, pushed packs) are ours and sent whole, with a length.
  const payload = body ? await readAll(Array.isArray(body) ? toAsync(body) : body) : undefined;
  const res = await egressFetch({ url, label: 'url', method, headers, body: payload, signal, ...gitFetchLimits });
  return {
    url: res.url, method, statusCode: res.status, statusMessage: res.statusText, headers: res.headers,
    body: res.body[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array>,
  };
}

async function* toAsync(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

export const egressHttp: HttpClient = { request };
