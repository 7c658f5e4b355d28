import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3 } from '../../aws/clients.ts';
import { config } from '../../config.ts';
import { spaceContents, spaceEntity } from '../../db/entities/space.ts';
import { ConditionFailed } from '../../db/errors.ts';
import { nowEpochSeconds } from '../../clock.ts';
import { purge, run } from '../../db/writes.ts';

/** S3 prefix of everything a space stores (files, manifests, large documents). */
export const spaceObjectPrefix = (spaceId: string) => `spaces/${spaceId}/`;

/**
 * Removes everything a permanently deleted space owned: every record of its partition
 * and every object under its S3 prefix. Idempotent: safe to run twice.
 */
export async function purgeSpace(spaceId: string): Promise<{ records: number; objects: number }> {
  const records = await purge(spaceContents, { spaceId });
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
  return { records, objects };
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
    const page = await spaceEntity.query.deleted({}).page({ limit: 100, cursor });
    for (const space of page.items) {
      if (space.expiresAt! > now) return purged; // sorted by expiry
      const spaceId = space.id;
      try {
        await run(spaceEntity.delete({ spaceId }, (w) => w.le('expiresAt', now)));
      } catch (error) {
        if (error instanceof ConditionFailed) continue; // restored meanwhile
        throw error;
      }
      await purgeSpace(spaceId);
      purged.push(spaceId);
    }
    cursor = page.next;
  } while (cursor);
  return purged;
}
