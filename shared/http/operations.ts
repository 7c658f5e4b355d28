import type { GroupName, Operation, OperationGroup } from './declare.ts';
import { group as collections } from '../../functions/collections/operations.ts';
import { group as spaces } from '../../functions/spaces/operations.ts';
import { group as content } from '../../functions/content/operations.ts';
import { group as changeRequests } from '../../functions/change-requests/operations.ts';
import { group as comments } from '../../functions/comments/operations.ts';
import { group as openapi } from '../../functions/openapi/operations.ts';
import { group as sites } from '../../functions/sites/operations.ts';
import { group as organizations } from '../../functions/organizations/operations.ts';
import { group as members } from '../../functions/members/operations.ts';
import { group as teams } from '../../functions/teams/operations.ts';
import { group as sso } from '../../functions/sso/operations.ts';
import { group as translations } from '../../functions/translations/operations.ts';
import { group as conversations } from '../../functions/conversations/operations.ts';
import { group as integrations } from '../../functions/integrations/operations.ts';
import { group as git } from '../../functions/git/operations.ts';

export type { GroupName, HttpMethod, Operation } from './declare.ts';
export { toHonoPath } from './declare.ts';

/**
 * The catalogue: every operation the service offers, relative to /v1, gathered from each
 * group's declarations (functions/<group>/operations.ts, see shared/http/declare.ts).
 * Source of truth: shared/spec/service-interface.md, part 4 (sections 4.1 to 4.19), which
 * lists 140 operations; the others are marked `inSpec: false`. Operation ids follow the
 * GitBook API where it has the same operation.
 */
const groups: readonly OperationGroup[] = [
  collections, spaces, content, changeRequests, comments, openapi, sites, organizations, members, teams, sso,
  translations, conversations, integrations, git,
];

export const groupNames: readonly GroupName[] = groups.map((g) => g.name);

export const operations: readonly Operation[] = groups.flatMap((g) => g.operations);
