/**
 * The git binary, run the one way the worker runs it: never through a shell, with no
 * system or user configuration, no prompts, no proxy, and only the http transport allowed
 * (it only ever talks to the loopback relay: relay.ts), with a time cap.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BatchAnswers } from './batch-answers.ts';

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
  readonly args: string[];
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(args: string[], exitCode: number | null, stderr: string) {
    super(`git ${args[0]} failed: ${stderr.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${exitCode}`}`);
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
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

export interface GitObject {
  oid: string;
  type: string;
  bytes: Buffer;
}

interface PendingRead {
  /** The object id or revision asked for. */
  name: string;
  resolve(object: GitObject): void;
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
  private failed: Error | undefined;
  private corked = false;

  constructor(gitdir: string, home: string) {
    this.child = spawnGit(['cat-file', '--batch'], { cwd: gitdir, home });
    const answers = new BatchAnswers((answer) => {
      const read = this.pending.shift();
      if (!read) return;
      if ('unavailable' in answer) read.reject(new Error(`The object ${read.name} is ${answer.unavailable} in the repository`));
      else read.resolve(answer);
    });
    this.child.stdout.on('data', (chunk: Buffer) => answers.push(chunk));
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

  read(oid: string): Promise<GitObject> {
    if (!/^[0-9a-f]{40,64}$/.test(oid)) return Promise.reject(new Error(`Not an object id: ${oid}`));
    return this.ask(oid);
  }

  /**
   * The commit a branch points at (`refs/heads/<branch>^{commit}`, as `git rev-parse` reads
   * it), asked of this process instead of a process of its own. `branch` is a valid branch
   * name (shared/git/ref-name.ts): no whitespace, so it cannot end the request's line.
   */
  async branchHead(branch: string): Promise<GitObject> {
    if (/\s/.test(branch)) throw new Error(`Not a branch name: ${branch}`);
    const object = await this.ask(`refs/heads/${branch}^{commit}`);
    if (object.type !== 'commit') throw new Error(`refs/heads/${branch} names a ${object.type}, not a commit`);
    return object;
  }

  private ask(name: string): Promise<GitObject> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.push({ name, resolve, reject });
      // Requests made in the same tick reach git in one write (a read-ahead asks for many).
      if (!this.corked) {
        this.corked = true;
        this.child.stdin.cork();
        process.nextTick(() => {
          this.corked = false;
          this.child.stdin.uncork();
        });
      }
      this.child.stdin.write(`${name}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
