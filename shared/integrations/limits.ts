/**
 * Limits of one script run (shared/integrations/runtime.ts), read from the environment on
 * every run. CPU time and memory are those of the workerd process that runs the one event
 * (its start-up excluded from the CPU budget); wall time runs from the request to the last
 * byte of the answer.
 */
export interface ScriptLimits {
  cpuMs: number;
  memoryBytes: number;
  wallMs: number;
  responseBytes: number;
  /** Outbound requests (fetch) one run may make. */
  subrequests: number;
}

export function scriptLimits(): ScriptLimits {
  return {
    cpuMs: positive(process.env.INTEGRATION_CPU_MS, 5_000),
    memoryBytes: positive(process.env.INTEGRATION_MEMORY_MB, 256) * 1024 * 1024,
    wallMs: positive(process.env.INTEGRATION_WALL_MS, 10_000),
    responseBytes: positive(process.env.INTEGRATION_RESPONSE_KB, 4 * 1024) * 1024,
    subrequests: positive(process.env.INTEGRATION_SUBREQUESTS, 50),
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isSafeInteger(n) && n > 0 ? n : fallback;
}
