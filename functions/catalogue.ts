import type { GroupName, Operation, OperationGroup } from '../shared/http/declare.ts';
import { group as collections } from './collections/operations.ts';
import { group as spaces } from './spaces/operations.ts';
import { group as content } from './content/operations.ts';
import { group as changeRequests } from './change-requests/operations.ts';
import { group as comments } from './comments/operations.ts';
import { group as openapi } from './openapi/operations.ts';
import { group as sites } from './sites/operations.ts';
import { group as organizations } from './organizations/operations.ts';
import { group as members } from './members/operations.ts';
import { group as teams } from './teams/operations.ts';
import { group as sso } from './sso/operations.ts';
import { group as translations } from './translations/operations.ts';
import { group as conversations } from './conversations/operations.ts';
import { group as integrations } from './integrations/operations.ts';
import { group as git } from './git/operations.ts';

export type { GroupName, HttpMethod, Operation } from '../shared/http/declare.ts';
export { toHonoPath } from '../shared/http/declare.ts';

/**
 * The catalogue: every operation the service offers, relative to /v1, gathered from each
 * group's declarations (functions/<group>/operations.ts, see shared/http/declare.ts).
 * Source of truth: shared/spec/service-interface.md, part 4 (sections 4.1 to 4.19), which
 * lists 140 operations; the others are marked `inSpec: false`. Operation ids follow the
 * GitBook API where it has the same operation. It lives here, beside the groups, because
 * shared/ never imports functions/: what needs every operation (the OpenAPI document, the
 * README table, the API Gateway routes, the local server) is given this list.
 */
export const groups: readonly OperationGroup[] = [
  collections, spaces, content, changeRequests, comments, openapi, sites, organizations, members, teams, sso,
  translations, conversations, integrations, git,
];

export const groupNames: readonly GroupName[] = groups.map((g) => g.name);

export const operations: readonly Operation[] = groups.flatMap((g) => g.operations);
