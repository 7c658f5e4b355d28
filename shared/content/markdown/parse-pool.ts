/**
 * markdown -> document off the main thread, with a time budget.
 *
 * Parsing is linear once the limits hold (limits.ts), but a page at the size limit still
 * takes longer than a request may hold the event loop (~100 ms), and the local server runs
 * every request and queue worker on one loop. So long-running processes parse in a small
 * pool of worker threads; a parse over its budget (or out of the worker's memory) ends
 * the worker and answers a limit error. A Lambda instance serves one request at a time,
 * and its bundle has no worker file: there, and with MARKDOWN_PARSE_WORKERS=0, pages are
 * parsed on the calling thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { assertMarkdownPrecheck, ContentLimitError } from './limits.ts';
import { markdownToDocument } from './parse.ts';
import type { ParseReply, ParseRequest } from './parse-worker.ts';

/** `frontmatterError`: a leading `---` block that is not valid YAML, read as markdown instead; `parser`: which read the page (markdownToDocument). */
export type ParsedMarkdown = ReturnType<typeof markdownToDocument>;

/** Worker threads (default 2; 0 parses on the calling thread). */
const poolSize = () => Number(process.env.MARKDOWN_PARSE_WORKERS ?? 2);
/** Time budget of one page (default 30 s, API Gateway's own limit): past it the page is refused, whatever its size. */
const timeoutMs = () => Number(process.env.MARKDOWN_PARSE_TIMEOUT_MS ?? 30_000);
/** Heap of one worker (MB): a page whose document would not fit is refused, not the process. */
const WORKER_HEAP_MB = 512;

const workerUrl = new URL('./parse-worker.ts', import.meta.url);

function poolAvailable(): boolean {
  return poolSize() > 0 && !process.env.AWS_LAMBDA_FUNCTION_NAME && workerUrl.protocol === 'file:' && existsSync(fileURLToPath(workerUrl));
}

interface Job {
  markdown: string;
  resolve(value: ParsedMarkdown): void;
  reject(error: Error): void;
}

class Slot {
  private worker?: Worker;
  busy = false;

  run(job: Job, done: () => void): void {
    this.busy = true;
    const worker = (this.worker ??= spawn());
    let settled = false;
    const finish = (result: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      this.busy = false;
      result();
      done();
    };
    const retire = () => {
      if (this.worker === worker) this.worker = undefined;
      void worker.terminate();
    };
    const onMessage = (reply: ParseReply) => finish(() => {
      if (reply.ok) job.resolve(JSON.parse(reply.json) as ParsedMarkdown);
      else job.reject(reply.limit ? new ContentLimitError(reply.message) : new Error(reply.message));
    });
    const onError = (error: Error & { code?: string }) => finish(() => {
      retire();
      job.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ContentLimitError('needs more memory to parse than a page may use') : error);
    });
    const onExit = () => finish(() => {
      retire();
      job.reject(new Error('the markdown parser stopped'));
    });
    const timer = setTimeout(() => finish(() => {
      retire();
      job.reject(new ContentLimitError(`takes longer than ${timeoutMs() / 1000} s to parse`));
    }), timeoutMs());
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id: 0, markdown: job.markdown } satisfies ParseRequest);
  }
}

function spawn(): Worker {
  // TypeScript sources (npm start, tests) run on Node's type stripping, in the worker as in its parent.
  const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // Idle workers must not keep a CLI or a test process alive.
  worker.unref();
  return worker;
}

const slots: Slot[] = [];
const queue: Job[] = [];

function dispatch(): void {
  while (queue.length > 0) {
    while (slots.length < poolSize()) slots.push(new Slot());
    const slot = slots.find((s) => !s.busy);
    if (!slot) return;
    slot.run(queue.shift()!, dispatch);
  }
}

/** markdownToDocument in the pool (or inline where there is none). Rejects with ContentLimitError over a limit. */
export async function parseMarkdown(markdown: string): Promise<ParsedMarkdown> {
  // The cheap checks first, here: an oversized page never travels to a worker.
  assertMarkdownPrecheck(markdown);
  if (!poolAvailable()) return markdownToDocument(markdown);
  return new Promise((resolve, reject) => {
    queue.push({ markdown, resolve, reject });
    dispatch();
  });
}
