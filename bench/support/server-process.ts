import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { projectNodeBinary } from './project-node.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const serverChild = fileURLToPath(new URL('../api/server-child.ts', import.meta.url));

export type ServerPorts = Record<'local' | 'bare' | 'spaces' | 'diag', number>;

export interface ServerProcess {
  ports: ServerPorts;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The benchmarks' servers in a process of their own (bench/api/server-child.ts: the local app,
 * the bare floor app, the spaces group app, diagnostic routes), on the project's Node, as
 * `npm start` serves: a server sharing the benchmark's process would pay for its clients and
 * its garbage. `env` adds to this process's (emulator endpoints, table and bucket names).
 * BENCH_CPU_PROF=<dir>: a V8 CPU profile of the server process, written when it stops.
 */
export function startServerProcess(env: Record<string, string> = {}, onReady?: (message: string) => void): Promise<ServerProcess> {
  const child = fork(serverChild, [], {
    execPath: projectNodeBinary(),
    execArgv: ['--disable-warning=ExperimentalWarning', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [])],
    cwd: projectRoot,
    // One token sends thousands of requests a minute: the limits stay in the path, never reached.
    env: { RATE_LIMIT_PER_MINUTE: '100000000', READER_RATE_LIMIT_PER_MINUTE: '100000000', POWERTOOLS_LOG_LEVEL: 'WARN', ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error('server process did not start within 60 s'));
    }, 60_000);
    child.once('exit', (code) => reject(new Error(`server process exited early (${code})`)));
    child.on('message', (message) => {
      const m = message as { ready?: boolean; ports: ServerPorts; node: string };
      if (!m.ready) return;
      clearTimeout(timer);
      onReady?.(`server process ${child.pid} (node ${m.node}) listening on ${JSON.stringify(m.ports)}`);
      resolve({ ports: m.ports, pid: child.pid!, child, stop });
    });
  });
}

/** Asks the server process to stop (it closes its servers), killing it after 5 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send('stop');
    else child.kill();
  });
}
