import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { logger } from '../observability/logger.ts';
import { ConditionFailed, NotFound, TransactionConflict } from '../db/errors.ts';

/** An error with a status the caller is meant to see. Body: {"error":{"code","message"}}. */
export class ApiError extends Error {
  /** Extra fields of the error object, e.g. the conflicts of a merge. */
  details?: Record<string, unknown>;
  /** Headers the answer carries (a 405's `Allow`). */
  headers?: Record<string, string>;

  readonly status: ContentfulStatusCode;

  constructor(status: ContentfulStatusCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.name = 'ApiError';
    if (details) this.details = details;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'A valid bearer token is required (Authorization: Bearer <token>)') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
/** 405 with the `Allow` header RFC 9110 asks of it: the path exists, with other methods. */
export function methodNotAllowed(message: string, allowed: readonly string[]): ApiError {
  const error = new ApiError(405, message);
  error.headers = { Allow: allowed.join(', ') };
  return error;
}
export const notImplemented = (message = 'This operation is not implemented yet') => new ApiError(501, message);

export function errorBody(status: number, message: string, details?: Record<string, unknown>) {
  return { error: { code: status, message, ...details } };
}

/** AWS errors that mean "slow down": the caller should retry, so they answer 429. */
const throttlingErrors = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TooManyRequestsException']);

/**
 * Storage errors (shared/db/errors.ts) a command did not translate itself: the one place
 * where they become HTTP answers.
 */
export function storageErrorAsApiError(error: unknown): ApiError | undefined {
  if (error instanceof NotFound) return new ApiError(404, 'The resource was not found');
  if (error instanceof ConditionFailed) return new ApiError(409, 'The resource was changed by another request; retry');
  if (error instanceof TransactionConflict) return new ApiError(409, 'A concurrent request changed the same resource; retry');
  return undefined;
}

export function errorResponse(c: Context, error: unknown) {
  error = storageErrorAsApiError(error) ?? error;
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    return c.json(errorBody(error.status, error.message, error.details), error.status);
  }
  if (throttlingErrors.has((error as Error)?.name)) {
    c.header('Retry-After', '1');
    return c.json(errorBody(429, 'Too many requests: the data store is throttling, retry shortly'), 429);
  }
  const status = (error as { status?: unknown }).status;
  // Hono's own HTTPException (e.g. body limit) carries a client status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return c.json(errorBody(status, (error as Error).message || 'Bad request'), status as ContentfulStatusCode);
  }
  // The client's connection closed while its body was read (e.g. the local server's request
  // timeout cut a trickled body): nobody is left to answer, and it is not a service fault.
  if ((error as NodeJS.ErrnoException)?.code === 'ECONNRESET' && (error as Error).message === 'aborted') {
    return c.json(errorBody(408, 'body: the connection closed before the body was received'), 408);
  }
  logger.error('unhandled error', { path: c.req.path, error: error as Error });
  return c.json(errorBody(500, 'Internal server error'), 500);
}
