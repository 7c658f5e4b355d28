import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU time and resident memory of the workerd processes miniflare starts, read from
 * /proc (Linux: the machines and Lambda this runs on). workerd enforces no CPU or memory
 * limit of its own outside Cloudflare, so the runtime samples them and kills the process
 * that goes over (runtime.ts).
 */
const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux
const PAGE_BYTES = 4096;

export interface ProcessUsage { cpuMs: number; rssBytes: number }

/** Pids of this process's children running workerd (none where /proc is absent). */
export async function workerdChildren(): Promise<Set<number>> {
  const pids = new Set<number>();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return pids;
  }
  await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map(async (entry) => {
    const stat = await readStat(Number(entry));
    if (stat && stat.comm === 'workerd' && stat.ppid === process.pid) pids.add(Number(entry));
  }));
  return pids;
}

/** CPU time and RSS of `pid`; undefined once it is gone. */
export async function usageOf(pid: number): Promise<ProcessUsage | undefined> {
  const stat = await readStat(pid);
  return stat ? { cpuMs: stat.cpuTicks * CLOCK_TICK_MS, rssBytes: stat.rssPages * PAGE_BYTES } : undefined;
}

async function readStat(pid: number): Promise<{ comm: string; ppid: number; cpuTicks: number; rssPages: number } | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ..." — comm may hold spaces and parentheses: split after the last ')'.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15, rss 24.
  return { comm, ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
}
