import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { config } from '../config.ts';
import { nowEpochSeconds } from '../clock.ts';
import { countRequest, rateLimitCounterEntity, type RateLimitScope } from '../db/entities/rate-limit.ts';
import type { Key } from '../db/table.ts';
import type { StoredRecord } from '../db/operations.ts';
import { ApiError, errorBody } from './errors.ts';
import { clientAddress } from './rate-limit-client-address.ts';
import type { AppEnv } from './env.ts';
import { setAnswerHeader } from './answer-headers.ts';
import { forgetRecords } from './auth-cache.ts';
import { currentWindow, stateOf, type RateLimitState } from './rate-limit-window.ts';
import { countInSteps } from './stepped-request-counter.ts';

/**
 * Rate limits that hold across Lambda instances: a DynamoDB counter per subject and fixed
 * one-minute window (shared/db/entities/rate-limit.ts), counted with an atomic ADD.
 * - a valid token: `RATE_LIMIT_PER_MINUTE` (600) per token, counted while the
 *   authentication batch reads, so it adds no round trip, and written in steps
 *   (stepped-request-counter.ts);
 * - API requests without a valid token (missing, unknown, revoked: token guessing):
 *   `READER_RATE_LIMIT_PER_MINUTE` (300) per client address; once over, every bearer
 *   request from the address gets 429 until the window ends, a right guess included;
 * - reader requests (published sites, share-key and visitor-token guesses), SAML
 *   endpoints and integrations' public endpoints: the same per-address limit, counted
 *   separately and written in steps too (a page load, the page and its images, writes once);
 *   requests without a valid token stay counted exactly, one write each.
 * Over the limit: 429 with Retry-After. Every answer carries X-RateLimit-Limit,
 * X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds of the window's end).
 */

/** Counts one request of `subject` and says whether it is over `limit`. */
async function count(scope: RateLimitScope, subject: string, limit: number): Promise<RateLimitState> {
  const { start, reset } = currentWindow();
  const used = await countRequest({ scope, subject, windowStart: start, expiresAt: reset });
  return stateOf(limit, used, reset, used > limit);
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
  if (state.limited) headers['Retry-After'] = String(Math.max(1, state.reset - nowEpochSeconds()));
  return headers;
}

function tooManyRequests(state: RateLimitState, what: string): ApiError {
  const wait = Math.max(1, state.reset - nowEpochSeconds());
  return new ApiError(429, `Too many requests: ${what} is limited to ${state.limit} requests per minute; retry in ${wait} s`);
}

/** Outermost on every API route: writes the state the authentication left on whatever the answer is. */
export const rateLimitHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const state = c.get('rateLimit');
  if (state) for (const [name, value] of Object.entries(rateLimitHeaders(state))) setAnswerHeader(c, name, value);
});

// A request is counted against its token by stepped-request-counter.ts (written in steps).

/** After authentication succeeded: 429 when the token is over its limit. */
export function enforceTokenLimit(c: Context<AppEnv>, state: RateLimitState): void {
  c.set('rateLimit', state);
  if (state.limited) throw tooManyRequests(state, 'an access token');
}

/** The caller address's counter of requests without a valid token, read in the authentication batch. */
export function failedAuthenticationCounterKey(c: Context): Key {
  return rateLimitCounterEntity.key({ scope: 'address', subject: clientAddress(c), windowStart: currentWindow().start });
}

/**
 * 429 before the token's validity shows when the address already spent its allowance of
 * requests without a valid token: otherwise a right guess would still answer 200.
 */
export function refuseBlockedAddress(c: Context<AppEnv>, counter: StoredRecord | undefined): void {
  const limit = config.readerRateLimitPerMinute;
  const used = Number(counter?.count ?? 0);
  if (used < limit) return;
  const state = stateOf(limit, used, currentWindow().reset, true);
  c.set('rateLimit', state);
  throw tooManyRequests(state, 'an address sending requests without a valid access token');
}

/** Counts a request without a valid token against its address; 429 once over the limit. */
export async function countFailedAuthentication(c: Context<AppEnv>): Promise<void> {
  const state = await count('address', clientAddress(c), config.readerRateLimitPerMinute);
  // Not a write of shared/db/writes.ts: the cached count of this address is forgotten here.
  forgetRecords([failedAuthenticationCounterKey(c)]);
  c.set('rateLimit', state);
  if (state.limited) throw tooManyRequests(state, 'an address sending requests without a valid access token');
}

/**
 * Requests without a bearer token, per client address (READER_RATE_LIMIT_PER_MINUTE, a
 * counter per scope); the 429 is answered here, before anything is rendered. `alongside`
 * starts a read the request will need while the counter is written, and is not waited for
 * here: the handler awaits it (and meets its failure), and may start the reads that follow
 * it while it is still in flight (functions/reader/site-prefetch.ts).
 */
function addressRateLimit(scope: RateLimitScope, what: string, { within, alongside }: { within?: (c: Context) => string; alongside?: (c: Context) => Promise<unknown> | undefined } = {}) {
  return createMiddleware(async (c, next) => {
    const subject = within ? `${clientAddress(c)}#${within(c)}` : clientAddress(c);
    alongside?.(c)?.catch(() => undefined);
    const state = await countInSteps(scope, subject, config.readerRateLimitPerMinute, { beside: alongside !== undefined });
    const headers = rateLimitHeaders(state);
    if (state.limited) {
      return c.json(errorBody(429, tooManyRequests(state, what).message), 429, { ...headers, 'Cache-Control': 'no-store' });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) setAnswerHeader(c, name, value);
  });
}

/** Published sites: share-key and visitor-token guesses included; `alongside` as addressRateLimit's. */
export const readerRateLimit = (alongside?: (c: Context) => Promise<unknown> | undefined) =>
  addressRateLimit('reader', 'reading published sites from one address', { alongside });

/**
 * Integrations' public endpoints: every request starts a workerd process that runs the script,
 * so they are counted per address and integration (a busy sender of webhooks to one
 * integration does not use up another's).
 */
export const integrationEndpointRateLimit = addressRateLimit('integration', 'calling an integration\'s public endpoint from one address', { within: (c) => c.req.param('integrationName') ?? '' });

/** SAML service provider endpoints: every posted response costs a signature check. */
export const samlRateLimit = addressRateLimit('sso', 'signing in with SAML from one address');
