import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { config, queueNames, queueUrlVariable, type QueueName } from '../config.ts';
import { tableSchema } from '../db/table-schema.ts';
import { sqs, s3 } from '../aws/clients.ts';

/** Creates the table, the queues (each with a DLQ) and the bucket when absent. Idempotent. */
export async function provision(options: { visibilityTimeoutSeconds?: number; prefix?: string } = {}): Promise<void> {
  await createTable();
  for (const name of queueNames) {
    const url = await createQueueWithDlq(`${options.prefix ?? 'docs-service'}-${name}`, options.visibilityTimeoutSeconds ?? 30);
    process.env[queueUrlVariable(name as QueueName)] = url;
  }
  await createBucket();
}

async function createTable(): Promise<void> {
  const client = new DynamoDBClient({ region: config.region });
  const attributes = new Set([tableSchema.partitionKey, tableSchema.sortKey, ...tableSchema.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  try {
    await client.send(new CreateTableCommand({
      TableName: config.tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
      KeySchema: [{ AttributeName: tableSchema.partitionKey, KeyType: 'HASH' }, { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' }],
      GlobalSecondaryIndexes: tableSchema.globalIndexes.map((i) => ({
        IndexName: i.indexName,
        KeySchema: [{ AttributeName: i.partitionKey, KeyType: 'HASH' }, { AttributeName: i.sortKey, KeyType: 'RANGE' }],
        Projection: { ProjectionType: 'ALL' },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }));
    await client.send(new UpdateTimeToLiveCommand({
      TableName: config.tableName,
      TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true },
    }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  for (let i = 0; i < 100; i++) {
    const out = await client.send(new DescribeTableCommand({ TableName: config.tableName }));
    if (out.Table?.TableStatus === 'ACTIVE') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  client.destroy();
}

/** Creates (or finds) a queue and its dead-letter queue, redriven after 3 receives; returns the queue URL. */
export async function createQueueWithDlq(name: string, visibilityTimeoutSeconds: number): Promise<string> {
  const dlq = await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dlq`, Attributes: { MessageRetentionPeriod: '1209600' } }));
  const dlqAttributes = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ['QueueArn'] }));
  const queue = await sqs().send(new CreateQueueCommand({
    QueueName: name,
    Attributes: {
      VisibilityTimeout: String(visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttributes.Attributes!.QueueArn, maxReceiveCount: 3 }),
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
