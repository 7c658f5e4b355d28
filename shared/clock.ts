/**
 * The service's clock. Everything time-dependent (timestamps, TTL, restore window)
 * reads it, so tests can move time forward instead of waiting.
 */
let offsetMs = 0;
/**
 * advanceClock's moves of the monotonic clock. resetClock leaves them: a monotonic clock
 * never steps back, and what an instance measured on it before a reset (a write it remembers)
 * must not lie in its future after one.
 */
let monotonicOffsetMs = 0;
/** Set by stepWallClock(): the wall clock's own steps, which elapsed time does not see. */
let wallStepMs = 0;
/** Set by freezeClock(): the clock stands at this instant (plus any advance) until reset. */
let frozenAtMs: number | undefined;
let frozenAtMonotonicMs: number | undefined;

/**
 * performance.now() in whole milliseconds, as Date.now() counts: differences of fractional
 * readings are not exact (t + 1000 - t can be 999.9999999), and a window would not end on time.
 */
const wholeMs = () => Math.floor(performance.now());

export function nowMs(): number {
  return (frozenAtMs ?? Date.now()) + offsetMs + wallStepMs;
}

/**
 * Milliseconds on a clock that never steps back (`performance.now()`, not the time of day):
 * for windows an instance keeps in memory (Instant, below). advanceClock moves it as it moves
 * nowMs(); stepWallClock does not.
 */
export function monotonicMs(): number {
  return (frozenAtMonotonicMs ?? wholeMs()) + monotonicOffsetMs;
}

/**
 * A moment on both clocks, for windows an instance keeps in memory: the time of day can step
 * back (an NTP correction), and a monotonic clock may stand still while a Lambda instance is
 * frozen between invocations, so neither is enough alone.
 */
export interface Instant {
  wall: number;
  monotonic: number;
}

export const instantNow = (): Instant => ({ wall: nowMs(), monotonic: monotonicMs() });

/** Time since `then` by the clock that saw more of it pass: what ends a window (a cache entry's, a flush's). */
export const longerElapsedSince = (then: Instant): number => Math.max(nowMs() - then.wall, monotonicMs() - then.monotonic);

export function nowIso(): string {
  return new Date(nowMs()).toISOString();
}

export function nowEpochSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

/** Test hook: shift the clock by `ms` (cumulative); the monotonic clock only moves forward. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
  monotonicOffsetMs += Math.max(0, ms);
}

/** Test hook: the wall clock steps by `ms` (an NTP correction, either way) while no time passes. */
export function stepWallClock(ms: number): void {
  wallStepMs += ms;
}

/** Test hook: stop the clock where it is, so a slow machine's real time cannot cross a window; only advanceClock moves it. */
export function freezeClock(): void {
  frozenAtMs = Date.now();
  frozenAtMonotonicMs = wholeMs();
}

export function resetClock(): void {
  offsetMs = 0;
  wallStepMs = 0;
  frozenAtMs = undefined;
  frozenAtMonotonicMs = undefined;
}
