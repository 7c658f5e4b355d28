import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU accounting from /proc (Linux): which process burns the CPU during a load run.
 * Read-only; returns nothing useful elsewhere (the benchmark then prints n/a).
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  cpuMs: number;
  /** CPU of the child processes it has reaped (cutime + cstime). */
  childrenCpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is state (field 3), so utime (field 14) is fields[11], stime fields[12],
    // cutime and cstime (the reaped children's) fields[13] and fields[14].
    return {
      pid, ppid: Number(fields[1]), comm,
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      childrenCpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return undefined;
  }
}

/** Descendant processes of `root` (children, grandchildren, ...). */
export function descendants(root: number): ProcStat[] {
  let all: ProcStat[];
  try {
    all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => readStat(Number(d))).filter((s): s is ProcStat => s !== undefined);
  } catch {
    return [];
  }
  const found: ProcStat[] = [];
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const s of all) if (s.ppid === parent) {
      found.push(s);
      frontier.push(s.pid);
    }
  }
  return found;
}

/**
 * CPU time (user + system, every thread) of a process so far, ms; with `children`, also that
 * of the child processes it has reaped (bench:git: this process and the git server's). NaN
 * when unknown.
 */
export function cpuMs(pid: number | undefined, options: { children?: boolean } = {}): number {
  const stat = pid === undefined ? undefined : readStat(pid);
  if (!stat) return Number.NaN;
  return stat.cpuMs + (options.children ? stat.childrenCpuMs : 0);
}

/** CPU time (ms) of the child processes `pid` has reaped so far, from one read (bench:git: a job's git processes); NaN when unknown. */
export function reapedChildrenCpuMs(pid: number): number {
  return readStat(pid)?.childrenCpuMs ?? Number.NaN;
}
