import { BatchWriteCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { db } from '../db/client.ts';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { queryAll, queryPage } from '../db/operations.ts';
import { spaceEntity } from '../db/entities/space.ts';
import { PK, SK } from '../db/table.ts';
import { nowEpochSeconds } from '../clock.ts';

/** S3 prefix of everything a space stores (files, manifests, large documents). */
export const spaceObjectPrefix = (spaceId: string) => `spaces/${spaceId}/`;

/**
 * Removes everything a permanently deleted space owned: every record of its partition
 * and every object under its S3 prefix. Idempotent: safe to run twice.
 */
export async function purgeSpace(spaceId: string): Promise<{ records: number; objects: number }> {
  const records = await queryAll({ partition: spaceEntity.key({ spaceId }).pk });
  for (let i = 0; i < records.length; i += 25) {
    let pending = records.slice(i, i + 25).map((r) => ({ DeleteRequest: { Key: { [PK]: r[PK], [SK]: r[SK] } } }));
    while (pending.length > 0) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pending } }));
      pending = (out.UnprocessedItems?.[config.tableName] ?? []) as typeof pending;
    }
  }
  let objects = 0;
  let token: string | undefined;
  do {
    const list = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: spaceObjectPrefix(spaceId), ContinuationToken: token }));
    const keys = (list.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length > 0) {
      await s3().send(new DeleteObjectsCommand({ Bucket: config.bucketName, Delete: { Objects: keys } }));
      objects += keys.length;
    }
    token = list.IsTruncated ? list.NextContinuationToken : undefined;
  } while (token);
  return { records: records.length, objects };
}

/**
 * What DynamoDB's TTL does in AWS, for stores that do not expire items (DynamoDB Local):
 * deletes spaces whose retention has ended and purges what they owned.
 */
export async function sweepExpiredSpaces(): Promise<string[]> {
  const now = nowEpochSeconds();
  const purged: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await queryPage({ index: 'gsi3', partition: 'DELETED_SPACES', limit: 100, cursor });
    for (const record of page.records) {
      if ((record.expiresAt as number) > now) return purged; // sorted by expiry
      const spaceId = record.id as string;
      try {
        await db().send(new DeleteCommand({
          TableName: config.tableName,
          Key: spaceEntity.key({ spaceId }),
          ConditionExpression: 'expiresAt <= :now',
          ExpressionAttributeValues: { ':now': now },
        }));
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') continue; // restored meanwhile
        throw error;
      }
      await purgeSpace(spaceId);
      purged.push(spaceId);
    }
    cursor = page.next;
  } while (cursor);
  return purged;
}
