/**
 * The service's clock. Everything time-dependent (timestamps, TTL, restore window)
 * reads it, so tests can move time forward instead of waiting.
 */
let offsetMs = 0;
/** Set by stepWallClock(): the wall clock's own steps, which elapsed time does not see. */
let wallStepMs = 0;
/** Set by freezeClock(): the clock stands at this instant (plus any advance) until reset. */
let frozenAtMs: number | undefined;
let frozenAtMonotonicMs: number | undefined;

export function nowMs(): number {
  return (frozenAtMs ?? Date.now()) + offsetMs + wallStepMs;
}

/**
 * Milliseconds on a clock that never steps back (`performance.now()`, not the time of day):
 * for windows an instance keeps in memory (shared/http/auth-cache.ts). advanceClock moves it as
 * it moves nowMs(); stepWallClock does not.
 */
export function monotonicMs(): number {
  return (frozenAtMonotonicMs ?? performance.now()) + offsetMs;
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

/** Test hook: the wall clock steps by `ms` (an NTP correction, either way) while no time passes. */
export function stepWallClock(ms: number): void {
  wallStepMs += ms;
}

/** Test hook: stop the clock where it is, so a slow machine's real time cannot cross a window; only advanceClock moves it. */
export function freezeClock(): void {
  frozenAtMs = Date.now();
  frozenAtMonotonicMs = performance.now();
}

export function resetClock(): void {
  offsetMs = 0;
  wallStepMs = 0;
  frozenAtMs = undefined;
  frozenAtMonotonicMs = undefined;
}
