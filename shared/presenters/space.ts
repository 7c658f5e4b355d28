import type { SpaceItem } from '../db/entities/space.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import { apiLocation, appLocation } from './urls.ts';
import { config } from '../config.ts';
import type { SpaceOutput } from './schemas/space.ts';
import { presentSpaceGitSync } from './git-sync.ts';

export interface SpacePresentationContext {
  role: Role | null;
  org: OrganizationItem;
  /** The share key given by the caller (`shareKey` query), for share-link published URLs. */
  shareKey?: string;
}

/** Space (spec 2.7), every field, `permissions` computed for the caller. */
export function presentSpace(space: SpaceItem, context: SpacePresentationContext): SpaceOutput {
  const published = `https://${context.org.hostname}/${space.id}`;
  const showShareKey = space.visibility === 'share-link' && context.shareKey === space.shareKey;
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt ? { deletedAt: space.deletedAt } : {}),
    editMode: space.editMode,
    mergeRules: space.mergeRules,
    urls: {
      location: apiLocation(`/spaces/${space.id}`),
      app: appLocation(`/s/${space.id}`),
      published: showShareKey ? `${published}?share=${space.shareKey}` : published,
      ...(space.visibility === 'public' || space.visibility === 'unlisted' ? { public: published } : {}),
      icon: `${config.apiUrl}/v1/spaces/${space.id}/icon`,
    },
    organization: space.orgId,
    ...(space.parent ? { parent: space.parent } : {}),
    ...(space.language ? { language: space.language } : {}),
    ...(space.gitSync ? { gitSync: presentSpaceGitSync(space.id, space.gitSync) } : {}),
    ...(space.visitorAuth ? { visitorAuth: space.visitorAuth } : {}),
    revision: space.revision ?? '',
    defaultLevel: space.defaultLevel,
    comments: space.comments,
    changeRequests: space.changeRequests,
    changeRequestsOpen: space.changeRequestsOpen,
    changeRequestsDraft: space.changeRequestsDraft,
    permissions: policies.space.permissions(context, space),
  };
}
