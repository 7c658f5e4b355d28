import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { sqs } from '../aws/clients.ts';
import { config, queueNames, type QueueName } from '../config.ts';
import { handler as gitWorker } from '../../functions/workers/git/handler.ts';
import { handler as translationsWorker } from '../../functions/workers/translations/handler.ts';
import { handler as integrationEventsWorker } from '../../functions/workers/integration-events/handler.ts';
import { handler as jobsWorker } from '../../functions/workers/jobs/handler.ts';
import { handler as imagesWorker } from '../../functions/workers/images/handler.ts';

const workers: Record<QueueName, (event: SQSEvent) => Promise<SQSBatchResponse>> = {
  git: gitWorker,
  translations: translationsWorker,
  'integration-events': integrationEventsWorker,
  jobs: jobsWorker,
  images: imagesWorker,
};

/**
 * Long-polls every queue and feeds the messages to the same worker handlers the Lambdas
 * run, deleting what succeeded; failures come back after the visibility timeout and end
 * in the DLQ after maxReceiveCount, as with Lambda's event source mapping.
 */
export function startQueuePollers(): { stop(): Promise<void> } {
  let running = true;
  const loops = queueNames.map(async (name) => {
    while (running) {
      try {
        await pollOnce(name, 1);
      } catch (error) {
        if (running) {
          console.error(`queue ${name}: ${String(error)}`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Receives one batch from a queue and processes it; returns how many messages came. */
export async function pollOnce(name: QueueName, waitSeconds = 0): Promise<number> {
  const url = config.queueUrl(name);
  if (!url) throw new Error(`no URL for queue ${name}`);
  const out = await sqs().send(new ReceiveMessageCommand({
    QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds, AttributeNames: ['All'],
  }));
  const messages = out.Messages ?? [];
  if (messages.length === 0) return 0;
  const event: SQSEvent = {
    Records: messages.map((m) => ({
      messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body ?? '',
      attributes: m.Attributes as never, messageAttributes: {}, md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs', eventSourceARN: url, awsRegion: config.region,
    })),
  };
  const result = await workers[name](event);
  const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
  const done = messages.filter((m) => !failed.has(m.MessageId!));
  if (done.length > 0) {
    await sqs().send(new DeleteMessageBatchCommand({
      QueueUrl: url,
      Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
    }));
  }
  return messages.length;
}
