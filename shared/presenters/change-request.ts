import type { ChangeRequestItem } from '../db/entities/change-request.ts';
import type { UserItem } from '../db/entities/user.ts';
import { absentUser, presentUser } from './user.ts';
import { apiLocation, appLocation } from './urls.ts';
import type { ChangeRequestOutput } from './schemas/change-request.ts';

export interface ChangeRequestPresentationContext {
  /** The space's current primary revision: `outdated` is computed against it. */
  spaceRevision: string | undefined;
  /** Users named by the change request (createdBy, mergedBy), loaded beforehand. */
  user(userId: string): UserItem | undefined;
}

/**
 * ChangeRequest (spec 2.9), every field. `outdated`: the revision the change request last
 * synchronised with (its merged ancestor after an update, else the revision it started
 * from) is no longer the space's revision. Merged change requests are never outdated.
 * Internal fields (orgId, contributors, requestedReviewers) are not part of the resource.
 */
export function presentChangeRequest(cr: ChangeRequestItem, context: ChangeRequestPresentationContext): ChangeRequestOutput {
  const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description !== undefined ? { description: cr.description } : {}),
    createdBy: presentUser(context.user(cr.createdBy) ?? absentUser(cr.createdBy, cr.createdAt)),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    ...(cr.mergedBy ? { mergedBy: presentUser(context.user(cr.mergedBy) ?? absentUser(cr.mergedBy, cr.createdAt)) } : {}),
    ...(cr.mergedAt ? { mergedAt: cr.mergedAt } : {}),
    space: cr.spaceId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: Math.max(0, cr.comments ?? 0),
    outdated: cr.status !== 'merged' && context.spaceRevision !== undefined && base !== context.spaceRevision,
    ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
    urls: {
      app: appLocation(`/s/${cr.spaceId}/~/changes/${cr.number}`),
      location: apiLocation(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
    },
  };
}

export type PresentedChangeRequest = ChangeRequestOutput;

