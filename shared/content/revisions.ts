import { run, type Write } from '../db/writes.ts';
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
}): Promise<{ revision: RevisionItem; put: Write }> {
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
    put: revisionEntity.create({ spaceId: input.spaceId, revisionId: revision.id }, revision),
  };
}

export async function saveRevision(input: Parameters<typeof prepareRevision>[0]): Promise<RevisionItem> {
  const { revision, put } = await prepareRevision(input);
  await run(put);
  return revision;
}

/** A revision of a space with its manifest, or undefined when the space has no such revision. */
export async function loadRevision(spaceId: string, revisionId: string): Promise<LoadedRevision | undefined> {
  const revision = await revisionEntity.get({ spaceId, revisionId });
  if (!revision) return undefined;
  return { revision, manifest: await getJsonBlob<Manifest>(revision.manifest) };
}
