import { readFileSync } from 'node:fs';

/**
 * Peak RSS of a process, and of it with every process below it, sampled from outside (Linux
 * /proc) every `intervalMs`. The git worker's job is CPU-bound on one thread: sampling inside
 * it (a timer and /proc reads every 5 ms) charged the measured job for the measuring, and could
 * only sample between its tasks.
 */
export function sampleRss(pid: number, intervalMs = 5): { stop(): { peak: number; treePeak: number } } {
  let peak = 0;
  let treePeak = 0;
  const sample = () => {
    const own = rssOf(pid);
    peak = Math.max(peak, own);
    treePeak = Math.max(treePeak, own + descendantsRss(pid));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peak, treePeak };
    },
  };
}

/** VmRSS of one process in bytes; 0 once it has exited (or off Linux). */
function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** RSS of every process below `pid`. */
function descendantsRss(pid: number): number {
  let children: string[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return 0;
  }
  let total = 0;
  for (const child of children) total += rssOf(Number(child)) + descendantsRss(Number(child));
  return total;
}
