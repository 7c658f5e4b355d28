import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { startTestApi } from './support/api.ts';
import { db } from '../shared/db/client.ts';
import { sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { queryAll } from '../shared/db/operations.ts';
import { enqueue } from '../shared/jobs/enqueue.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { handler as spaceExpiry } from '../functions/workers/space-expiry/handler.ts';

beforeAll(async () => {
  // Sets the emulator endpoints and queue URLs for this process.
  await (await startTestApi()).close();
});

/** Receives until the queue hands out a message or the attempts run out. */
async function pollUntilProcessed(queue: Parameters<typeof pollOnce>[0], attempts = 10): Promise<void> {
  for (let i = 0; i < attempts; i++) if ((await pollOnce(queue, 1)) > 0) return;
  throw new Error(`nothing arrived on ${queue}`);
}

describe('space expiry: TTL removal -> stream worker -> jobs queue -> purge', () => {
  it('purges what a space owned when DynamoDB TTL removes it', async () => {
    const spaceId = `expired-${Date.now()}`;
    await db().send(new PutCommand({ TableName: config.tableName, Item: { pk: `SPACE#${spaceId}`, sk: 'CR#1', entityType: 'change-request' } }));
    const event = {
      Records: [
        // An ordinary delete by a user is not a TTL removal: ignored.
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '1', OldImage: { entityType: { S: 'space' }, id: { S: 'other' } } } },
        {
          eventName: 'REMOVE',
          userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
          dynamodb: { SequenceNumber: '2', OldImage: { entityType: { S: 'space' }, id: { S: spaceId } } },
        },
      ],
    } as unknown as DynamoDBStreamEvent;
    expect(await spaceExpiry(event)).toEqual({ batchItemFailures: [] });
    await pollUntilProcessed('jobs');
    expect(await queryAll({ partition: `SPACE#${spaceId}` })).toEqual([]);
  });
});

describe('failing jobs', () => {
  it('are retried and land in the dead-letter queue after 3 receives', async () => {
    // A translation that does not exist: the translations worker fails the job every time.
    // (Each test file has its own queues: see test/support/api.ts.)
    await enqueue({ kind: 'translation-run', organizationId: 'dlq-probe', translationId: 'dlq-probe' });
    const url = config.queueUrl('translations')!;
    const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['RedrivePolicy'] }));
    const dlqArn = JSON.parse(Attributes!.RedrivePolicy!).deadLetterTargetArn as string;
    const dlqUrl = url.replace(/[^/]+$/, dlqArn.split(':').pop()!);
    let received = 0;
    for (let i = 0; i < 20 && received < 3; i++) received += await pollOnce('translations', 2);
    expect(received).toBe(3);
    expect(await pollOnce('translations', 2)).toBe(0);
    const dead = await sqs().send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 2, MaxNumberOfMessages: 10 }));
    expect(dead.Messages?.map((m) => JSON.parse(m.Body!).translationId)).toContain('dlq-probe');
  });
});
