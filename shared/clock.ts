/**
 * The service's clock. Everything time-dependent (timestamps, TTL, restore window)
 * reads it, so tests can move time forward instead of waiting.
 */
let offsetMs = 0;

export function nowMs(): number {
  return Date.now() + offsetMs;
}

export function nowIso(): string {
  return new Date(nowMs()).toISOString();
}

export function nowEpochSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

/** Test hook: shift the clock by `ms` (cumulative). */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
