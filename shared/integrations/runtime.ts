import { Miniflare } from 'miniflare';
import type { IntegrationEventLog } from '../db/entities/integration.ts';
import { scriptLimits, type ScriptLimits } from './limits.ts';
import { usageOf, workerdChildren } from './process-watch.ts';

/**
 * Runs a published integration script — a Workers module as `@gitbook/cli` bundles it — in
 * workerd through miniflare, the way `gitbook dev` does, one workerd process per run: no
 * state leaks from one event or installation to the next, and killing the process is a
 * complete stop. CPU time and memory are sampled from /proc (process-watch.ts) and wall
 * time is a timer: going over any of them kills the process and the run fails with that
 * reason. `console` output comes back as the run's logs; every outbound `fetch` of the
 * script is handed to `outbound` (the service's egress guard, outbound.ts).
 */
export const COMPATIBILITY_DATE = '2025-05-25';
const SAMPLE_INTERVAL_MS = 20;
/**
 * What one run adds to its event's trace (a stored item, three attempts at most, under the
 * 300 KB of a stored field): lines past these are counted in a last line, long lines cut.
 */
export const TRACE_LINES_PER_RUN = 300;
export const TRACE_CHARS_PER_RUN = 24 * 1024;
export const TRACE_LINE_CHARS = 2_000;

export type RunFailureReason = 'cpu' | 'memory' | 'wall' | 'response-size' | 'startup' | 'crash' | 'hung';

export interface ScriptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
}

export interface ScriptRun {
  response?: { status: number; headers: Record<string, string>; body: Buffer };
  failure?: { reason: RunFailureReason; message: string };
  logs: IntegrationEventLog[];
}

export type OutboundHandler = (request: Request) => Promise<Response>;

const levels: Record<string, IntegrationEventLog['level']> = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' };

/** Start-ups one at a time: the new workerd child is then the one this run started. */
let startups: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(start: () => Promise<T>): Promise<T> {
  const run = startups.then(start, start);
  startups = run.catch(() => undefined);
  return run;
}

export async function runScript(script: string, request: ScriptRequest, outbound: OutboundHandler, limits: ScriptLimits = scriptLimits()): Promise<ScriptRun> {
  const logs: IntegrationEventLog[] = [];
  let keptChars = 0;
  let leftOut = 0;
  let outOfMemory = false;
  const log = (message: string, level: IntegrationEventLog['level'], timestamp = Date.now()) => {
    if (/out of memory/i.test(message)) outOfMemory = true;
    const text = message.length > TRACE_LINE_CHARS ? `${message.slice(0, TRACE_LINE_CHARS)}… (${message.length} characters)` : message;
    if (logs.length >= TRACE_LINES_PER_RUN || keptChars + text.length > TRACE_CHARS_PER_RUN) {
      leftOut++;
      return;
    }
    keptChars += text.length;
    logs.push({ message: text, level, timestamp: new Date(timestamp).toISOString() });
  };
  const done = (result: ScriptRun): ScriptRun => {
    if (leftOut === 0) return result;
    const note = `${leftOut} more lines left out: the trace keeps ${TRACE_LINES_PER_RUN} lines and ${TRACE_CHARS_PER_RUN / 1024} K characters of a run`;
    return { ...result, logs: [...result.logs, { message: note, level: 'warn', timestamp: new Date().toISOString() }] };
  };
  return done(await execute(script, request, outbound, limits, logs, log, () => outOfMemory));
}

async function execute(
  script: string, request: ScriptRequest, outbound: OutboundHandler, limits: ScriptLimits, logs: IntegrationEventLog[],
  log: (message: string, level: IntegrationEventLog['level'], timestamp?: number) => void, outOfMemory: () => boolean,
): Promise<ScriptRun> {
  let mf: Miniflare | undefined;
  let pid: number | undefined;
  // workerd's own output: why a script could not start (an uncaught error at the top level, a
  // module it imports that does not exist) is said only there.
  let runtimeOutput = '';
  const collect = (stream: NodeJS.ReadableStream) => stream.on('data', (chunk: Buffer | string) => {
    if (runtimeOutput.length < 4096) runtimeOutput += chunk.toString();
  });
  try {
    ({ mf, pid } = await oneAtATime(async () => {
      const before = await workerdChildren();
      const instance = new Miniflare({
        modules: true,
        script,
        compatibilityDate: COMPATIBILITY_DATE,
        compatibilityFlags: ['nodejs_compat'],
        handleStructuredLogs: ({ level, message, timestamp }: { level: string; message: string; timestamp: number }) => log(message, levels[level] ?? 'info', timestamp),
        outboundService: reported(outbound, log),
        handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
          collect(stdout);
          collect(stderr);
        },
      });
      try {
        await instance.ready;
      } catch (error) {
        await instance.dispose().catch(() => undefined);
        throw error;
      }
      const started = [...await workerdChildren()].find((p) => !before.has(p));
      return { mf: instance, pid: started };
    }));
  } catch (error) {
    const said = startupError(runtimeOutput);
    return { logs, failure: { reason: 'startup', message: `The script could not start: ${said ?? (error as Error).message}` } };
  }

  let failure: ScriptRun['failure'];
  const controller = new AbortController();
  const stop = (reason: RunFailureReason, message: string) => {
    failure ??= { reason, message };
    controller.abort();
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch { /* already gone */ }
    }
  };
  const baseline = pid !== undefined ? await usageOf(pid) : undefined;
  const sampler = pid !== undefined && baseline ? setInterval(() => {
    void usageOf(pid!).then((usage) => {
      if (!usage) return;
      if (usage.cpuMs - baseline.cpuMs > limits.cpuMs) stop('cpu', `The script used more than ${limits.cpuMs} ms of CPU time and was stopped`);
      else if (usage.rssBytes > limits.memoryBytes) stop('memory', `The script used more than ${Math.round(limits.memoryBytes / 1048576)} MB of memory and was stopped`);
    });
  }, SAMPLE_INTERVAL_MS) : undefined;
  const wall = setTimeout(() => stop('wall', `The script did not answer within ${limits.wallMs} ms and was stopped`), limits.wallMs);
  try {
    const res = await mf.dispatchFetch(request.url, {
      method: request.method, headers: request.headers, body: request.body as never, signal: controller.signal,
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limits.responseBytes) {
        stop('response-size', `The script's response is larger than ${limits.responseBytes} bytes`);
        break;
      }
      chunks.push(chunk);
    }
    if (failure) return { logs, failure };
    const body = Buffer.concat(chunks);
    const runtimeFailure = res.status === 500 ? runtimeError(body) : undefined;
    if (runtimeFailure) return { logs, failure: runtimeFailure };
    return { logs, response: { status: res.status, headers: responseHeaders(res.headers), body } };
  } catch (error) {
    // V8 may give up on its heap before the sampler sees the process grow past the limit.
    if (!failure && outOfMemory()) {
      failure = { reason: 'memory', message: 'The script ran out of memory and was stopped' };
    }
    return { logs, failure: failure ?? { reason: 'crash', message: `The script failed: ${(error as Error).message}` } };
  } finally {
    clearInterval(sampler);
    clearTimeout(wall);
    await mf.dispose().catch(() => undefined);
  }
}

/**
 * miniflare's entry worker answers 500 with the error's stack when the script throws outside
 * any handler of its own, or when workerd cancels a request whose promise can never settle (a
 * hung script). That answer is not the script's: it names the service's files
 * (node_modules/miniflare/...), so it is turned into a failure naming only the error.
 */
const ENTRY_WORKER_FRAME = /\n\s+at [^\n]*\/miniflare\/dist\/src\/workers\/core\/entry\.worker\.js/;
const HUNG = /^Error: The Workers runtime canceled this request because it detected that your Worker's code had hung/;
function runtimeError(body: Buffer): ScriptRun['failure'] {
  if (body.byteLength > 64 * 1024) return undefined;
  const text = body.toString('utf8');
  if (!ENTRY_WORKER_FRAME.test(text)) return undefined;
  if (HUNG.test(text)) return { reason: 'hung', message: 'The script never answered: it waits on a promise that can never settle' };
  const first = text.split('\n', 1)[0]!.slice(0, 500);
  return { reason: 'crash', message: `The script failed: ${first}` };
}

/** The error workerd printed for the script (`service core:user:: Uncaught Error: ...`), without its prefix. */
function startupError(output: string): string | undefined {
  // Plain lines, or JSON lines (`{"level", "message"}`) when structured logging is on.
  const messages = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return typeof (parsed as { message?: unknown })?.message === 'string' ? (parsed as { message: string }).message : line;
    } catch {
      return line;
    }
  }).join('\n');
  const at = messages.indexOf('service core:user');
  if (at < 0) return undefined;
  return messages.slice(at).replace(/^service core:user[^:]*::\s*/, '').split('\n').slice(0, 5).join('\n').trim().slice(0, 1000);
}

/**
 * The script's outbound handler, never throwing: miniflare answers a thrown error with a 500
 * carrying the service's stack. A refused or failed request is answered 502 with the reason
 * alone (and `x-integration-fetch-error`), and the reason is a line of the run's trace.
 */
function reported(outbound: OutboundHandler, log: (message: string, level: IntegrationEventLog['level']) => void): OutboundHandler {
  return async (request) => {
    try {
      return await outbound(request);
    } catch (error) {
      const message = (error as Error).message;
      log(`Outbound request ${request.method} ${safeUrl(request.url)} failed: ${message}`, 'warn');
      return new Response(message, { status: 502, headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-integration-fetch-error': '1' } });
    }
  };
}

/** A URL for the trace, without credentials, query or fragment. */
function safeUrl(url: string): string {
  if (!URL.canParse(url)) return '(invalid URL)';
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** The script's answer headers, without miniflare's own and hop-by-hop ones. */
function responseHeaders(headers: { forEach(fn: (value: string, name: string) => void): void }): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!name.startsWith('mf-') && !/^(content-length|transfer-encoding|connection|content-encoding)$/.test(name)) out[name] = value;
  });
  return out;
}
