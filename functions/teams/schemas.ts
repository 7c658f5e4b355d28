import * as v from 'valibot';
import { id, listQueryEntries, oneLine } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';

export const teamParams = v.object({ organizationId: id, teamId: id });

const title = v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), maxChars(64), oneLine);

export const MAX_TEAM_MEMBERS_PER_REQUEST = 1000;

export const createTeamBody = v.strictObject({
  title,
  members: v.optional(v.pipe(
    v.array(id, 'must be an array of member ids'),
    v.maxLength(MAX_TEAM_MEMBERS_PER_REQUEST, `must list at most ${MAX_TEAM_MEMBERS_PER_REQUEST} members`),
  )),
});

export const updateTeamBody = v.strictObject({ title });

export const listTeamsQuery = v.object({
  ...listQueryEntries,
  /** A member id: only the teams that member can manage. */
  owner: v.optional(id),
  /** Case-insensitive "contains" on the title. */
  title: v.optional(v.pipe(v.string('must be a string'), v.trim(), maxChars(64))),
});
