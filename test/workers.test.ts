import { describe, expect, it } from 'vitest';
import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { useTestApi } from './support/api.ts';
import { sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { enqueue } from '../shared/jobs/enqueue.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { handler as spaceExpiry } from '../functions/workers/space-expiry/handler.ts';
import { changeRequestEntity, type ChangeRequestItem } from '../shared/db/entities/change-request.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { storedInPartition } from './support/stored.ts';
import { run } from '../shared/db/writes.ts';

// Sets the emulator endpoints and queue URLs for this process (the HTTP API itself is not called).
useTestApi();

/** Receives until the queue hands out a message or the attempts run out. */
async function pollUntilProcessed(queue: Parameters<typeof pollOnce>[0], attempts = 10): Promise<void> {
  for (let i = 0; i < attempts; i++) if ((await pollOnce(queue, 1)) > 0) return;
  throw new Error(`nothing arrived on ${queue}`);
}

describe('space expiry: TTL removal -> stream worker -> jobs queue -> purge', () => {
  it('purges what a space owned when DynamoDB TTL removes it', async () => {
    const spaceId = `expired-${Date.now()}`;
    // A record the space owned (its space record is what TTL removed).
    await run(changeRequestEntity.put({ spaceId, changeRequestId: '1' }, { id: '1', spaceId } as ChangeRequestItem));
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
    expect(await storedInPartition(spaceEntity.key({ spaceId }))).toEqual([]);
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
