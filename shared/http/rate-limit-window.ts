import { nowEpochSeconds } from '../clock.ts';

/** Rate limits count requests in fixed one-minute windows (shared/http/rate-limit.ts). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window ends and the count starts again. */
  reset: number;
  limited: boolean;
}

/** The window the clock is in: its start (part of a counter's key) and its end. */
export function currentWindow(): { start: number; reset: number } {
  const now = nowEpochSeconds();
  const start = now - (now % RATE_LIMIT_WINDOW_SECONDS);
  return { start, reset: start + RATE_LIMIT_WINDOW_SECONDS };
}

export function stateOf(limit: number, used: number, reset: number, limited: boolean): RateLimitState {
  return { limit, remaining: Math.max(0, limit - used), reset, limited };
}
