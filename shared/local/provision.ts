import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { config, queueNames, queueUrlVariable, type QueueName } from '../config.ts';
import { createTable } from '../db/table-provision.ts';
import { sqs, s3 } from '../aws/clients.ts';
import { MAX_RECEIVE_COUNT } from '../jobs/redrive.ts';

/** Creates the table, the queues (each with a DLQ) and the bucket when absent. Idempotent. */
export async function provision(options: { visibilityTimeoutSeconds?: number; prefix?: string } = {}): Promise<void> {
  await createTable();
  for (const name of queueNames) {
    const url = await createQueueWithDlq(`${options.prefix ?? 'docs-service'}-${name}`, options.visibilityTimeoutSeconds ?? 30);
    process.env[queueUrlVariable(name as QueueName)] = url;
  }
  await createBucket();
}


/** Creates (or finds) a queue and its dead-letter queue, redriven after MAX_RECEIVE_COUNT receives; returns the queue URL. */
export async function createQueueWithDlq(name: string, visibilityTimeoutSeconds: number): Promise<string> {
  const dlq = await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dlq`, Attributes: { MessageRetentionPeriod: '1209600' } }));
  const dlqAttributes = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ['QueueArn'] }));
  const queue = await sqs().send(new CreateQueueCommand({
    QueueName: name,
    Attributes: {
      VisibilityTimeout: String(visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttributes.Attributes!.QueueArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
    },
  }));
  return queue.QueueUrl!;
}

async function createBucket(): Promise<void> {
  try {
    await s3().send(new HeadBucketCommand({ Bucket: config.bucketName }));
  } catch {
    await s3().send(new CreateBucketCommand({ Bucket: config.bucketName }));
  }
}
