import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { getRecord } from '../db/operations.ts';
import { revisionEntity, type RevisionItem, type RevisionType } from '../db/entities/revision.ts';
import { randomId } from '../ids.ts';
import { nowIso } from '../clock.ts';
import { getJsonBlob, putJsonBlob } from './blobs.ts';
import type { Manifest } from './types.ts';

export interface LoadedRevision {
  revision: RevisionItem;
  manifest: Manifest;
}

/**
 * Writes a new immutable revision: the manifest blob (S3, content-addressed) and one
 * metadata record. Returns the record and the write that stores it, for callers that put it
 * in a transaction with the pointer change (space.revision, change request revision).
 */
export async function prepareRevision(input: {
  spaceId: string;
  manifest: Manifest;
  parents: string[];
  type: RevisionType;
  createdBy: string;
  mergedFrom?: string;
}): Promise<{ revision: RevisionItem; put: { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string } } }> {
  const revision: RevisionItem = {
    id: randomId(),
    spaceId: input.spaceId,
    parents: input.parents,
    manifest: await putJsonBlob(input.manifest),
    type: input.type,
    createdBy: input.createdBy,
    createdAt: nowIso(),
    ...(input.mergedFrom ? { mergedFrom: input.mergedFrom } : {}),
  };
  return {
    revision,
    put: {
      Put: {
        TableName: config.tableName,
        Item: revisionEntity.toRecord({ spaceId: input.spaceId, revisionId: revision.id }, revision),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function saveRevision(input: Parameters<typeof prepareRevision>[0]): Promise<RevisionItem> {
  const { revision, put } = await prepareRevision(input);
  await db().send(new PutCommand(put.Put));
  return revision;
}

/** A revision of a space with its manifest, or undefined when the space has no such revision. */
export async function loadRevision(spaceId: string, revisionId: string): Promise<LoadedRevision | undefined> {
  const record = await getRecord(revisionEntity.key({ spaceId, revisionId }));
  if (!record) return undefined;
  const revision = revisionEntity.fromRecord(record);
  return { revision, manifest: await getJsonBlob<Manifest>(revision.manifest) };
}
