import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { config } from '../config.ts';
import { tableSchema } from './table-schema.ts';

/** Creates the single table (keys, indexes, TTL, stream) when absent and waits until it is active (local emulators). */
export async function createTable(): Promise<void> {
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
