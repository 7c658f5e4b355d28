/**
 * The git binary, run the one way the worker runs it: never through a shell, with no
 * system or user configuration, no prompts, no proxy, and only the http transport allowed
 * (it only ever talks to the loopback relay: relay.ts), with a time cap.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** The binary (the git worker's container image installs it; GIT_BINARY for another one). */
const gitBinary = () => process.env.GIT_BINARY || 'git';

/** Options every invocation carries, before its subcommand. */
const SAFE_CONFIG = [
  '-c', 'protocol.allow=never', '-c', 'protocol.http.allow=always',
  '-c', 'http.proxy=', '-c', 'credential.helper=', '-c', 'core.askPass=',
  '-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false',
];

function environment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    LC_ALL: 'C',
  };
}

export class GitCommandError extends Error {
  constructor(readonly args: string[], readonly exitCode: number | null, readonly stderr: string) {
    super(`git ${args[0]} failed: ${stderr.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${exitCode}`}`);
  }
}

export function spawnGit(args: string[], options: { cwd: string; home: string }): ChildProcessWithoutNullStreams {
  return spawn(gitBinary(), [...SAFE_CONFIG, ...args], { cwd: options.cwd, env: environment(options.home), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs git to completion; resolves with its stdout, rejects with GitCommandError (its last stderr line). */
export function runGit(args: string[], options: { cwd: string; home: string; timeoutMs: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, options);
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64 * 1024) err += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitCommandError(args, code, signal === 'SIGKILL' ? `took longer than ${options.timeoutMs} ms` : err));
    });
    child.stdin.end();
  });
}

/**
 * An object of at least VIEW_MIN_BYTES is handed out as a view of the joined answer, not
 * copied out of it, when at most SHARED_TAIL_BYTES of later answers share that buffer: a large
 * file is not held twice, and a small object (copied: cheap) does not keep a whole chunk alive.
 */
const VIEW_MIN_BYTES = 1024 * 1024;
const SHARED_TAIL_BYTES = 64 * 1024;

interface PendingRead {
  oid: string;
  resolve(object: { type: string; bytes: Buffer }): void;
  reject(error: Error): void;
}

/**
 * `git cat-file --batch`: one process answers every object read of a job, in the order
 * asked, each object's bytes read straight from the pack (git's own delta cache and
 * inflate), so nothing but the objects being used is held here.
 */
export class ObjectReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: PendingRead[] = [];
  private chunks: Buffer[] = [];
  private length = 0;
  /** The answer being received, once its header line has arrived. */
  private header: { type: string; size: number } | undefined;
  private failed: Error | undefined;
  private corked = false;

  constructor(gitdir: string, home: string) {
    this.child = spawnGit(['cat-file', '--batch'], { cwd: gitdir, home });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    let err = '';
    this.child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const fail = (error: Error) => {
      this.failed = error;
      for (const read of this.pending.splice(0)) read.reject(error);
    };
    this.child.on('error', fail);
    this.child.on('close', (code) => fail(new GitCommandError(['cat-file'], code, err || 'stopped')));
    this.child.stdin.on('error', () => {});
  }

  read(oid: string): Promise<{ type: string; bytes: Buffer }> {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) return Promise.reject(new Error(`Not an object id: ${oid}`));
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.push({ oid, resolve, reject });
      // Requests made in the same tick reach git in one write (a read-ahead asks for many).
      if (!this.corked) {
        this.corked = true;
        this.child.stdin.cork();
        process.nextTick(() => {
          this.corked = false;
          this.child.stdin.uncork();
        });
      }
      this.child.stdin.write(`${oid}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  /** Answers are `<oid> <type> <size>\n<bytes>\n`, or `<oid> missing\n`. */
  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      const read = this.pending[0];
      if (!read) return;
      if (!this.header) {
        const joined = this.take(0);
        const eol = joined.indexOf(10);
        if (eol < 0) return;
        const [, type, size] = joined.subarray(0, eol).toString('latin1').split(' ');
        this.drop(eol + 1);
        if (!/^\d+$/.test(size ?? '')) {
          this.pending.shift();
          read.reject(new Error(`The object ${read.oid} is ${type ?? 'missing'} in the repository`));
          continue;
        }
        this.header = { type: type!, size: Number(size) };
      }
      // The object's bytes and the newline after them; a large object is joined once, when complete.
      if (this.length < this.header.size + 1) return;
      const joined = this.take(this.header.size);
      const own = joined.subarray(0, this.header.size);
      const bytes = own.length >= VIEW_MIN_BYTES && joined.length - own.length <= SHARED_TAIL_BYTES ? own : Buffer.from(own);
      this.drop(this.header.size + 1);
      const { type } = this.header;
      this.header = undefined;
      this.pending.shift();
      read.resolve({ type, bytes });
    }
  }

  /** The buffered bytes as one buffer (at least `min` of them joined). */
  private take(min: number): Buffer {
    if (this.chunks.length > 1 && (min === 0 || this.chunks[0]!.length < min)) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private drop(count: number): void {
    const first = this.take(count);
    this.chunks[0] = first.subarray(count);
    if (this.chunks[0].length === 0) this.chunks.shift();
    this.length -= count;
  }
}
