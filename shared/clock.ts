/**
 * The service's clock. Everything time-dependent (timestamps, TTL, restore window)
 * reads it, so tests can move time forward instead of waiting.
 */
let offsetMs = 0;
/** Set by freezeClock(): the clock stands at this instant (plus any advance) until reset. */
let frozenAtMs: number | undefined;

export function nowMs(): number {
  return (frozenAtMs ?? Date.now()) + offsetMs;
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

/** Test hook: stop the clock where it is, so a slow machine's real time cannot cross a window; only advanceClock moves it. */
export function freezeClock(): void {
  frozenAtMs = Date.now();
}

export function resetClock(): void {
  offsetMs = 0;
  frozenAtMs = undefined;
}
