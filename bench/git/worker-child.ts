/**
 * The git worker of `npm run bench:git`, in its own process as a Lambda would be (started by
 * run.ts with the emulator endpoints and queue URLs in its environment). On `run` it polls the
 * `git` queue with the same handler the Lambda runs until one batch has been processed,
 * sampling its own RSS, then answers with the peak and its idle baseline.
 */
import { pollOnce } from '../../shared/local/queue-poller.ts';

const send = (message: unknown) => process.send!(message);

process.on('message', async (message: { cmd: string }) => {
  if (message.cmd === 'exit') process.exit(0);
  if (message.cmd !== 'run') return;
  globalThis.gc?.();
  const heapBaseline = process.memoryUsage().heapUsed;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 5);
  try {
    const deadline = Date.now() + 5 * 60_000;
    let processed = 0;
    while (processed === 0 && Date.now() < deadline) processed = await pollOnce('git', 1);
    if (processed === 0) throw new Error('no git job arrived within 5 minutes');
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
    // What the job left behind once garbage is collected (caches: blobs, isomorphic-git).
    globalThis.gc?.();
    const retained = process.memoryUsage().heapUsed;
    send({ ok: true, baseline, peak, heapPeak, heapBaseline, retained, maxRssKb: process.resourceUsage().maxRSS });
  } catch (error) {
    send({ ok: false, error: String(error) });
  } finally {
    clearInterval(sampler);
  }
});

send({ ready: true });
