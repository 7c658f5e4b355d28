import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../aws/clients.ts';
import type { QueueName } from '../config.ts';
import { appendLogKeys, runWithLogContext } from '../observability/context.ts';
import { logger } from '../observability/logger.ts';
import { recordJob } from '../observability/metrics.ts';
import { observedHandler } from '../observability/lambda.ts';
import { jobSchema, type Job, type JobKind } from './jobs.ts';

export type JobProcessors = { [K in JobKind]?: (job: Extract<Job, { kind: K }>) => Promise<void> };

/** How long the message waited in the queue before this attempt (SQS's SentTimestamp). */
function queueLagMs(record: SQSRecord): number | undefined {
  const sent = Number(record.attributes?.SentTimestamp);
  return Number.isFinite(sent) && sent > 0 ? Math.max(0, Date.now() - sent) : undefined;
}

/** A failure that asks for its retry no sooner than `retryAfterSeconds` (backoff) instead of the queue's visibility timeout. */
export interface RetryLater extends Error { retryAfterSeconds?: number }

/** The queue URL of a record: its event source ARN turned into a URL (Lambda), or the URL itself (the local poller). */
function queueUrlOf(record: SQSRecord): string {
  const arn = /^arn:[^:]+:sqs:([^:]+):(\d+):(.+)$/.exec(record.eventSourceARN);
  return arn ? `https://sqs.${arn[1]}.amazonaws.com/${arn[2]}/${arn[3]}` : record.eventSourceARN;
}

async function deferRetry(record: SQSRecord, seconds: number | undefined): Promise<void> {
  if (seconds === undefined) return;
  await sqs().send(new ChangeMessageVisibilityCommand({
    QueueUrl: queueUrlOf(record), ReceiptHandle: record.receiptHandle, VisibilityTimeout: Math.min(Math.max(0, Math.round(seconds)), 43_200),
  })).catch((error: Error) => logger.warn('retry delay not set', { error }));
}

/**
 * SQS consumer shared by every worker Lambda: each record is parsed and processed on its
 * own; failures are reported per record (batchItemFailures) so SQS retries only those and,
 * after maxReceiveCount, moves them to the queue's DLQ; a failure with `retryAfterSeconds`
 * (RetryLater) comes back after that delay rather than the visibility timeout (backoff). Each job logs under its message id
 * (the correlation id of its lines) with its organization and space, and is measured
 * (outcome, duration, queue lag) per queue.
 */
export function createQueueHandler(queue: QueueName, processors: JobProcessors) {
  return observedHandler(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const context = { request_id: record.messageId, correlation_id: record.messageId };
      await runWithLogContext(context, async () => {
        const started = performance.now();
        const lagMs = queueLagMs(record);
        let kind: string | undefined;
        try {
          const job = v.parse(jobSchema, JSON.parse(record.body));
          kind = job.kind;
          appendLogKeys(job);
          const process = processors[job.kind] as ((job: Job) => Promise<void>) | undefined;
          if (!process) throw new Error(`No processor for job kind ${job.kind} on this queue`);
          await process(job);
          const durationMs = Math.round(performance.now() - started);
          logger.info('job done', { queue, kind, durationMs, queueLagMs: lagMs, receiveCount: Number(record.attributes?.ApproximateReceiveCount) });
          recordJob(queue, 'succeeded', durationMs, lagMs);
        } catch (error) {
          const durationMs = Math.round(performance.now() - started);
          logger.error('job failed', { queue, kind, durationMs, receiveCount: Number(record.attributes?.ApproximateReceiveCount), error: error as Error });
          recordJob(queue, 'failed', durationMs, lagMs);
          batchItemFailures.push({ itemIdentifier: record.messageId });
          await deferRetry(record, (error as RetryLater).retryAfterSeconds);
        }
      });
    }
    return { batchItemFailures };
  });
}
