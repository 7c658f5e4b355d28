import { spacePolicy } from './space.ts';
import { collectionPolicy } from './collection.ts';
import { organizationPolicy } from './organization.ts';
import { memberPolicy } from './member.ts';
import { teamPolicy } from './team.ts';
import { sitePolicy } from './site.ts';
import { translationPolicy } from './translation.ts';
import { commentPolicy } from './comment.ts';
import { integrationPolicy } from './integration.ts';
import { changeRequestPolicy } from './change-request.ts';

/**
 * Every resource's declared policy (shared/policies/policy.ts), e.g.
 * `policies.space.authorize(access, 'update', space)` in a route and
 * `policies.space.permissions(access, space)` in a presenter.
 */
export const policies = {
  space: spacePolicy,
  collection: collectionPolicy,
  organization: organizationPolicy,
  member: memberPolicy,
  team: teamPolicy,
  site: sitePolicy,
  translation: translationPolicy,
  comment: commentPolicy,
  integration: integrationPolicy,
  changeRequest: changeRequestPolicy,
};
