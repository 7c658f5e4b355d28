import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { jobSchema, type Job, type JobKind } from './jobs.ts';

export type JobProcessors = { [K in JobKind]?: (job: Extract<Job, { kind: K }>) => Promise<void> };

/**
 * SQS consumer shared by every worker Lambda: each record is parsed and processed on its
 * own; failures are reported per record (batchItemFailures) so SQS retries only those and,
 * after maxReceiveCount, moves them to the queue's DLQ.
 */
export function createQueueHandler(processors: JobProcessors) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const job = v.parse(jobSchema, JSON.parse(record.body));
        const process = processors[job.kind] as ((job: Job) => Promise<void>) | undefined;
        if (!process) throw new Error(`No processor for job kind ${job.kind} on this queue`);
        await process(job);
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'job failed', messageId: record.messageId, error: String(error) }));
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
