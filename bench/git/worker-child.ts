/**
 * The git worker of `npm run bench:git`, in its own process as a Lambda would be (started by
 * run.ts with the emulator endpoints and queue URLs in its environment). On `run` it takes its
 * baselines, says `armed`, and polls the `git` queue with the same handler the Lambda runs until
 * one batch has been processed, then answers with the time the handler returned and its idle
 * baseline and heap figures (the parent samples its RSS from outside).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { sqs } from '../../shared/aws/clients.ts';
import { config } from '../../shared/config.ts';
// The git Lambda's handler alone: the local poller (shared/local/queue-poller.ts) would also
// load the other queues' workers (the integration runtime among them), which the git Lambda
// does not hold, and their memory would count in this process's RSS.
import { handler } from '../../functions/workers/git/handler.ts';
import { reapedChildrenCpuMs } from '../support/proc-cpu.ts';

// A full GC on demand without --expose-gc on the command line (worker threads refuse that flag).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const send = (message: unknown) => process.send!(message);

process.on('message', async (message: { cmd: string }) => {
  if (message.cmd === 'exit') process.exit(0);
  if (message.cmd !== 'run') return;
  // The baselines' full GC runs before the parent starts its clock (it waits for `armed`).
  gc();
  const heapBaseline = process.memoryUsage().heapUsed;
  const baseline = process.memoryUsage().rss;
  // RSS is sampled by the parent from /proc (bench/git/rss-sampler.ts), so the job pays nothing
  // for it; the heap only from inside, every 50 ms (getHeapStatistics reads no /proc file).
  let heapPeak = getHeapStatistics().used_heap_size;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
  }, 50);
  // CPU from here to the handler's return: this process (every thread), and the git
  // processes it ran that ended meanwhile (their time is counted once they are reaped).
  const cpuStart = process.cpuUsage();
  const gitCpuStart = reapedChildrenCpuMs(process.pid);
  send({ armed: true });
  try {
    const deadline = Date.now() + 5 * 60_000;
    let handledAt: number | undefined;
    let cpuMs = 0;
    let gitCpuMs = 0;
    while (handledAt === undefined && Date.now() < deadline) {
      handledAt = await pollGitOnce();
      const cpu = process.cpuUsage(cpuStart);
      cpuMs = (cpu.user + cpu.system) / 1000;
      gitCpuMs = reapedChildrenCpuMs(process.pid) - gitCpuStart;
    }
    if (handledAt === undefined) throw new Error('no git job arrived within 5 minutes');
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    // What the job left behind once garbage is collected (caches: blobs, isomorphic-git): after
    // `handledAt`, so this GC is not part of the job's time.
    gc();
    const retained = process.memoryUsage().heapUsed;
    send({ ok: true, handledAt, cpuMs, gitCpuMs, baseline, heapPeak, heapBaseline, retained, maxRssKb: process.resourceUsage().maxRSS });
  } catch (error) {
    send({ ok: false, error: String(error) });
  } finally {
    clearInterval(sampler);
  }
});

/**
 * One receive from the git queue, handled as the Lambda's event source mapping would (one
 * message): the epoch time (ms, the parent's clock too) at which the handler returned, the
 * revision primary, or undefined when no message came.
 */
async function pollGitOnce(): Promise<number | undefined> {
  const url = config.queueUrl('git')!;
  const out = await sqs().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, WaitTimeSeconds: 1, AttributeNames: ['All'] }));
  const message = out.Messages?.[0];
  if (!message) return undefined;
  const event: SQSEvent = {
    Records: [{
      messageId: message.MessageId!, receiptHandle: message.ReceiptHandle!, body: message.Body ?? '',
      attributes: message.Attributes as never, messageAttributes: {}, md5OfBody: message.MD5OfBody ?? '',
      eventSource: 'aws:sqs', eventSourceARN: url, awsRegion: config.region,
    }],
  };
  const result = await handler(event);
  const handledAt = performance.timeOrigin + performance.now();
  if (result.batchItemFailures.length > 0) throw new Error('the git job failed (see the log above)');
  await sqs().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle! }));
  return handledAt;
}

send({ ready: true });
