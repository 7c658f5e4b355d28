import * as v from 'valibot';
import { countSchema, nullableRoleSchema, roleSchema, timestampSchema } from './common.ts';
import { userSchema } from './user.ts';
import { spaceSchema } from './space.ts';
import { teamSchema } from './team.ts';

/** Member (spec 2.4, plus `sites` of the public interface). */
export const memberSchema = v.object({
  object: v.literal('member'),
  /** The user id. */
  id: v.string(),
  role: nullableRoleSchema,
  user: userSchema,
  disabled: v.boolean(),
  joinedAt: timestampSchema,
  /** Absent until the member's first ping. */
  lastSeenAt: v.optional(timestampSchema),
  sso: v.boolean(),
  spaces: countSchema,
  teams: countSchema,
  sites: countSchema,
});
export type MemberOutput = v.InferOutput<typeof memberSchema>;

/** Item of GET /orgs/{organizationId}/members/{userId}/spaces (spec 2.4). */
export const memberSpacePermissionSchema = v.object({ permission: roleSchema, space: spaceSchema });

/** Item of GET /orgs/{organizationId}/members/{userId}/teams (spec 2.4). */
export const memberTeamSchema = v.object({ team: teamSchema, member: v.object({ role: v.picklist(['owner', 'member']) }) });

/** POST /orgs/{organizationId}/ping. */
export const pingSchema = v.object({ serviceVisitorClaims: v.string() });
