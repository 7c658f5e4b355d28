import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc counts CPU time in ticks of 10 ms on every mainstream kernel. */
const MS_PER_TICK = 10;

/**
 * CPU time (ms) a process has used so far, every thread included, from /proc/<pid>/stat:
 * its own (utime + stime), and with `children` also that of the child processes it has
 * reaped (cutime + cstime: the git processes a job ran). 0 off Linux or once it is gone.
 */
export function cpuMsOf(pid: number | undefined, options: { children?: boolean } = {}): number {
  if (pid === undefined) return 0;
  try {
    // The fields after the command's closing parenthesis, from the third (state) on.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ').map(Number);
    const [utime, stime, cutime, cstime] = [fields[11]!, fields[12]!, fields[13]!, fields[14]!];
    return (utime + stime + (options.children ? cutime + cstime : 0)) * MS_PER_TICK;
  } catch {
    return 0;
  }
}
