import { Duration } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueNames, type QueueName } from '../../shared/config.ts';
import { MAX_RECEIVE_COUNT } from '../../shared/jobs/redrive.ts';

/** How long one worker invocation may run; the queue's visibility timeout is derived from it. */
export const workerTimeouts: Record<QueueName, Duration> = {
  git: Duration.minutes(5),
  translations: Duration.minutes(2),
  'integration-events': Duration.minutes(2),
  jobs: Duration.minutes(2),
  images: Duration.minutes(2),
};

/**
 * How each queue is consumed: messages per invocation, and how many invocations the event
 * source runs at once (Lambda's SQS maximum concurrency, 2 at least), so a burst of jobs
 * cannot take the account's concurrency from the API or flood a downstream. A Git job
 * (clone, import or export of a whole repository) runs alone in its invocation: it gets
 * the whole timeout and is retried by itself.
 */
export const workerConsumption: Record<QueueName, { batchSize: number; maxConcurrency: number }> = {
  git: { batchSize: 1, maxConcurrency: 5 },
  translations: { batchSize: 10, maxConcurrency: 5 },
  'integration-events': { batchSize: 10, maxConcurrency: 10 },
  jobs: { batchSize: 10, maxConcurrency: 5 },
  // An image job decodes and encodes up to IMAGES_PER_JOB images (shared/content/images/generate.ts): two jobs per invocation.
  images: { batchSize: 2, maxConcurrency: 5 },
};

/** Receives before a message moves to its queue's DLQ. */
export const maxReceiveCount = MAX_RECEIVE_COUNT;

/** One work queue per name in shared/config.ts, each with its own dead-letter queue. */
export class DocsQueues extends Construct {
  readonly queues: Record<QueueName, Queue>;
  readonly deadLetterQueues: Record<QueueName, Queue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const queues: Partial<Record<QueueName, Queue>> = {};
    const deadLetterQueues: Partial<Record<QueueName, Queue>> = {};
    for (const name of queueNames) {
      const dlq = new Queue(this, `${name}-dlq`, { retentionPeriod: Duration.days(14), enforceSSL: true });
      deadLetterQueues[name] = dlq;
      queues[name] = new Queue(this, name, {
        // AWS recommends 6x the function timeout so retried batches are not delivered twice.
        visibilityTimeout: Duration.seconds(workerTimeouts[name].toSeconds() * 6),
        deadLetterQueue: { queue: dlq, maxReceiveCount },
        enforceSSL: true,
      });
    }
    this.queues = queues as Record<QueueName, Queue>;
    this.deadLetterQueues = deadLetterQueues as Record<QueueName, Queue>;
  }
}
