import { defineEntity } from '../entity.ts';
import { defineCollection } from '../collection.ts';
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
  /** The last change request number given (ADD-only, via the create transaction); absent before the first. */
  changeRequestNumber?: number;
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
export const spaceEntity = defineEntity<SpaceItem>()({
  type: 'space',
  key: ({ spaceId }: { spaceId: string }) => ({ pk: `SPACE#${spaceId}`, sk: 'SPACE' }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => `ORG#${a.orgId}#SPACES`, sk: (s) => `${s.createdAt}#${s.id}`, when: (s) => !s.deletedAt },
    /** Spaces among a parent's children (collections share the partition). */
    children: {
      index: 'gsi2', pk: (a: { orgId: string; parent?: string }) => childrenPartition(a.orgId, a.parent), sk: (s) => `${s.position}#${s.id}`,
      when: (s) => !s.deletedAt, sharedPartition: true,
    },
    /** Deleted spaces by expiry, for the purge. */
    deleted: { index: 'gsi3', pk: (_: object) => 'DELETED_SPACES', sk: (s) => `${String(s.expiresAt).padStart(12, '0')}#${s.id}`, when: (s) => Boolean(s.deletedAt) },
  },
});

/** Everything a space owns: its partition, purged with it (shared/commands/spaces/purge.ts). */
export const spaceContents = defineCollection({ pk: (a: { spaceId: string }) => `SPACE#${a.spaceId}`, members: {} });
