import { defineEntity } from '../entity.ts';

export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback' | 'computed' | 'initial';

export interface RevisionItem {
  id: string;
  spaceId: string;
  parents: string[];
  /** sha256 of the manifest blob. */
  manifest: string;
  type: RevisionType;
  createdBy: string;
  createdAt: string;
  git?: { oid: string; message: string; createdByGitBook: boolean; url?: string; ref?: string };
  /** Id of the change request a `merge` revision merged (presented as `mergedFrom`). */
  mergedFrom?: string;
}

/** SPACE#<space> / REVISION#<id>: revision metadata; the content is in the manifest blob. */
export const revisionEntity = defineEntity<RevisionItem, { spaceId: string; revisionId: string }>({
  type: 'revision',
  key: ({ spaceId, revisionId }) => ({ pk: `SPACE#${spaceId}`, sk: `REVISION#${revisionId}` }),
});
