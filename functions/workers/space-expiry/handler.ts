import type { DynamoDBStreamEvent } from 'aws-lambda';
import { enqueue } from '../../../shared/jobs/enqueue.ts';
import { observedHandler } from '../../../shared/observability/lambda.ts';
import { logger } from '../../../shared/observability/logger.ts';

/**
 * Table stream consumer: when DynamoDB's TTL removes a deleted space, queue the purge of
 * everything the space owned (its partition and its S3 objects) on the jobs queue.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    const old = record.dynamodb?.OldImage;
    const byTtl = record.userIdentity?.type === 'Service' && record.userIdentity?.principalId === 'dynamodb.amazonaws.com';
    if (record.eventName !== 'REMOVE' || !byTtl || old?.entityType?.S !== 'space' || !old.id?.S) continue;
    try {
      await enqueue({ kind: 'purge-space', spaceId: old.id.S });
    } catch (error) {
      logger.error('purge job not queued', { spaceId: old.id.S, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.dynamodb!.SequenceNumber! });
    }
  }
  return { batchItemFailures };
});
