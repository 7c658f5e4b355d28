import { afterAll, beforeAll } from 'vitest';

/**
 * Starts `start()` in a beforeAll and closes it in an afterAll, both registered by the call
 * (useTestApi, useGitServer). The accessor works once that beforeAll ran, i.e. in tests and in
 * hooks registered after the call; before, it says so instead of answering undefined.
 */
export function useStarted<T extends { close(): Promise<void> }>(name: string, start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return () => {
    if (!started) throw new Error(`${name}: not started yet (use it inside tests or later hooks)`);
    return started;
  };
}
