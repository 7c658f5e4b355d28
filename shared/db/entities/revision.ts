import { defineEntity } from '../entity.ts';
import type { GitRedirect } from '../../git/import.ts';

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
  /** `.gitbook.yaml` redirects of an imported revision, resolved to page ids (for readers). */
  gitRedirects?: GitRedirect[];
  /** Id of the change request a `merge` revision merged (presented as `mergedFrom`). */
  mergedFrom?: string;
}

/** SPACE#<space> / REVISION#<id>: revision metadata; the content is in the manifest blob. */
export const revisionEntity = defineEntity<RevisionItem>()({
  type: 'revision',
  key: ({ spaceId, revisionId }: { spaceId: string; revisionId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `REVISION#${revisionId}` }),
});
