import { config } from '../config.ts';
import { instantNow, longerElapsedSince, type Instant } from '../clock.ts';
import { countRequest, type RateLimitScope } from '../db/entities/rate-limit.ts';
import { untraced } from '../db/trace.ts';
import { currentWindow, stateOf, type RateLimitState } from './rate-limit-window.ts';

/**
 * Per-subject request counters (a token's RATE_LIMIT_PER_MINUTE, a client address's
 * READER_RATE_LIMIT_PER_MINUTE on published sites) written in steps instead of once per
 * request (issue 17: the token's UpdateItem was half the storage work of a cached GET; a page
 * load of a published site, the page and its images, wrote once per file).
 * An instance adds what it counted to the shared counter (one atomic ADD) when it has counted
 * `step` requests since its last write, or FLUSH_MS after it, whichever comes first; in
 * between it answers from the last shared count plus its own. `step` is a twentieth of the
 * limit (at least 1): with the default 600, a write every 30 requests of a token or every
 * second; with a limit under 40 every request writes, exactly as before. A subject spread over
 * several instances can so go over its limit by less than `step` requests per instance.
 * The second is counted on both clocks (shared/clock.ts, Instant): a time of day stepping back
 * within the minute does not hold back the write that is due.
 */
const FLUSH_MS = 1000;
/** Before any write of the window: the next request writes. */
const NEVER: Instant = { wall: -Infinity, monotonic: -Infinity };
/** Subjects tracked at once per instance (least recently counted first out). */
const MAX_SUBJECTS = 10_000;

interface SubjectWindow {
  windowStart: number;
  /** The shared count as the last write of this instance returned it. */
  shared: number;
  /** Counted here, not written yet. */
  pending: number;
  /** Being written. */
  inFlight: number;
  writtenAt: Instant;
}
const windows = new Map<string, SubjectWindow>();

/** Counts one request of a token; started beside the authentication read, untraced (see trace.ts). */
export function countTokenRequest(tokenHash: string): Promise<RateLimitState> {
  return countInSteps('token', tokenHash, config.rateLimitPerMinute, { beside: true });
}

/**
 * Counts one request of `subject` in `scope` against `limit`. `beside`: the request waits on
 * another storage call started at the same time, so the write is left out of its round
 * trips (untraced, see trace.ts).
 */
export async function countInSteps(scope: RateLimitScope, subject: string, limit: number, { beside = false } = {}): Promise<RateLimitState> {
  const { start: windowStart, reset } = currentWindow();
  const key = `${scope}#${subject}`;
  let w = windows.get(key);
  if (!w || w.windowStart !== windowStart) w = { windowStart, shared: 0, pending: 0, inFlight: 0, writtenAt: NEVER };
  windows.delete(key);
  windows.set(key, w);
  if (windows.size > MAX_SUBJECTS) windows.delete(windows.keys().next().value!);
  w.pending++;
  const step = Math.max(1, Math.floor(limit / 20));
  let used: number;
  if (w.pending >= step || longerElapsedSince(w.writtenAt) >= FLUSH_MS) {
    const by = w.pending;
    w.pending = 0;
    w.inFlight += by;
    w.writtenAt = instantNow();
    try {
      const write = () => countRequest({ scope, subject, windowStart, expiresAt: reset, by });
      used = await (beside ? untraced(write) : write());
    } finally {
      w.inFlight -= by;
    }
    w.shared = Math.max(w.shared, used);
  } else {
    used = w.shared + w.inFlight + w.pending;
  }
  return stateOf(limit, used, reset, used > limit);
}
