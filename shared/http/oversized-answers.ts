import { randomUUID } from 'node:crypto';
import type { StoredAnswer } from './answer-store.ts';
import { logger } from '../observability/logger.ts';

/** Where answers too large for Lambda wait to be fetched: the bucket expires them after a day (infra/constructs/storage.ts). */
export const ANSWERS_PREFIX = 'answers/';
export const ANSWER_EXPIRY_DAYS = 1;

/**
 * Lambda's limit on the answer of a synchronous invocation: 6 MB (6,291,456 bytes) of the
 * result's JSON. Over it, Lambda fails the invocation and API Gateway answers 500 with
 * `{"message":"Internal Server Error"}`, after the function did all the work.
 */
export const LAMBDA_ANSWER_BYTES = 6 * 1024 * 1024;

/**
 * The largest bytes an answer can carry within LAMBDA_ANSWER_BYTES once base64-encoded (as
 * binary answers are), with room for the headers: larger stored bytes are better sent from
 * the bucket directly (a presigned URL) than copied into a stored answer.
 */
export const MAX_BINARY_ANSWER_BYTES = Math.floor((LAMBDA_ANSWER_BYTES - 64 * 1024) / 4) * 3;

/** How long the link to a stored answer works: the client follows it at once. */
export const STORED_ANSWER_URL_SECONDS = 15 * 60;

/** The result of an API Gateway (payload v2) Lambda integration, as hono/aws-lambda builds it. */
export interface GatewayResult {
  statusCode: number;
  body: string;
  isBase64Encoded: boolean;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  cookies?: string[];
}

/** Headers that describe the body: they go with the stored object, not on the redirect. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-disposition', 'content-language', 'etag', 'last-modified', 'cache-control', 'vary']);

/** The result's size as Lambda counts it (its JSON), measured only when it could be near the limit. */
function resultBytes(result: GatewayResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/**
 * A successful answer larger than Lambda can return is stored under `answers/` and the client
 * is sent there with `303 See Other` and a presigned URL (15 minutes): every HTTP client,
 * `fetch` and `@gitbook/api` included, follows it and gets the same bytes, type and encoding.
 * The redirect keeps the answer's other headers (request id, rate limits) and cookies; the
 * stored copy is `no-store`. Answers that fit (nearly all, once compressed) pass untouched.
 * Error answers are small and never stored.
 */
export function storingOversizedAnswers<E, C>(
  handler: (event: E, context?: C) => Promise<GatewayResult>,
  { limitBytes = LAMBDA_ANSWER_BYTES }: { limitBytes?: number } = {},
) {
  return async (event: E, context?: C): Promise<GatewayResult> => {
    const result = await handler(event, context);
    // A UTF-8 character is at most 3 bytes, and escaping at most doubles: a short body needs no count.
    if (result.statusCode < 200 || result.statusCode > 299 || result.body.length * 6 + 64 * 1024 < limitBytes) return result;
    const bytes = resultBytes(result);
    if (bytes <= limitBytes) return result;
    // Operators see which answers outgrow Lambda (each costs a PUT and a second request of the client).
    logger.warn('answer stored: larger than a Lambda answer', { bytes, limitBytes, path: (event as { rawPath?: string }).rawPath });
    return storeAnswer(result);
  };
}

async function storeAnswer(result: GatewayResult): Promise<GatewayResult> {
  const headers = new Map(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers.set(k.toLowerCase(), v.join(', '));
  const answer: StoredAnswer = {
    key: `${ANSWERS_PREFIX}${new Date().toISOString().slice(0, 10)}/${randomUUID()}`,
    body: result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8'),
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    contentEncoding: headers.get('content-encoding'),
    contentDisposition: headers.get('content-disposition'),
    contentLanguage: headers.get('content-language'),
  };
  // Loaded on the first answer that needs it: functions that never touch the bucket otherwise
  // (members, teams, collections) need not evaluate the S3 client at every cold start.
  const location = await (await import('./answer-store.ts')).storeAnswerObject(answer, STORED_ANSWER_URL_SECONDS);
  const kept = Object.fromEntries([...headers].filter(([name]) => !BODY_HEADERS.has(name)));
  return {
    statusCode: 303,
    body: '',
    isBase64Encoded: false,
    headers: { ...kept, location, 'cache-control': 'no-store' },
    ...(result.cookies ? { cookies: result.cookies } : {}),
  };
}
