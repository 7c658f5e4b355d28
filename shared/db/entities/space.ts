import { defineEntity } from '../entity.ts';
import type { DefaultLevel } from '../../http/schemas.ts';
import type { MergeRules } from './organization.ts';
import { childrenPartition } from './children.ts';

export const spaceVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type SpaceVisibility = (typeof spaceVisibilities)[number];

export interface SpaceItem {
  id: string;
  orgId: string;
  title: string;
  emoji?: string;
  visibility: SpaceVisibility;
  editMode: 'live' | 'locked';
  parent?: string;
  ancestors: string[];
  position: string;
  language?: string;
  defaultLevel: DefaultLevel;
  mergeRules: MergeRules;
  /** Active revision id, set once content exists. */
  revision?: string;
  /** Secret of the space's share link, used for share-link published URLs. */
  shareKey: string;
  gitSync?: { repoName?: string; installationProvider?: string; integration?: string; url?: string; updatedAt?: string };
  visitorAuth?: { backend: string };
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Soft delete: set with the TTL attribute `expiresAt` (epoch seconds). */
  deletedAt?: string;
  expiresAt?: number;
}

/** Restore window and TTL of deleted spaces. */
export const SPACE_RETENTION_SECONDS = 7 * 24 * 60 * 60;

/**
 * SPACE#<id> / SPACE; everything a space owns lives in its partition.
 * gsi1: the org's spaces by creation; gsi2: children of the parent by position.
 * Deleted spaces leave both lists and enter gsi3 DELETED_SPACES (by expiry) for the purge.
 */
export const spaceEntity = defineEntity<SpaceItem, { spaceId: string }>({
  type: 'space',
  key: ({ spaceId }) => ({ pk: `SPACE#${spaceId}`, sk: 'SPACE' }),
  indexes: (s) => s.deletedAt
    ? { gsi1: null, gsi2: null, gsi3: { pk: 'DELETED_SPACES', sk: `${String(s.expiresAt).padStart(12, '0')}#${s.id}` } }
    : {
        gsi1: { pk: `ORG#${s.orgId}#SPACES`, sk: `${s.createdAt}#${s.id}` },
        gsi2: { pk: childrenPartition(s.orgId, s.parent), sk: `${s.position}#${s.id}` },
        gsi3: null,
      },
});
