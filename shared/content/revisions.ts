import { run, type Write } from '../db/writes.ts';
import { revisionEntity, type RevisionItem, type RevisionType } from '../db/entities/revision.ts';
import { randomId } from '../ids.ts';
import { nowIso } from '../clock.ts';
import { getJsonBlob, putJsonBlob } from './blobs.ts';
import type { Manifest } from './types.ts';
import { requestImageVariants } from './images/request.ts';

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
  // Every revision is prepared here, so this is where new images get their resized variants asked for.
  await requestImageVariants(revision, input.manifest);
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
  const revision = knownRevisions.get(`${spaceId}/${revisionId}`) ?? await revisionEntity.get({ spaceId, revisionId });
  if (!revision) return undefined;
  rememberRevision(revision);
  return { revision, manifest: await getJsonBlob<Manifest>(revision.manifest) };
}

/**
 * A revision record never changes once written (only its space's pointer moves), so each
 * instance keeps the ones it read: a read of a space's content costs no revision GetItem
 * (issue 17). Least recently read first out.
 */
const knownRevisions = new Map<string, RevisionItem>();
const MAX_KNOWN_REVISIONS = 5_000;

function rememberRevision(revision: RevisionItem): void {
  const key = `${revision.spaceId}/${revision.id}`;
  knownRevisions.delete(key);
  knownRevisions.set(key, revision);
  if (knownRevisions.size > MAX_KNOWN_REVISIONS) knownRevisions.delete(knownRevisions.keys().next().value!);
}
