import * as v from 'valibot';
import { id, listQueryEntries, nullableRole, order, roles } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';

export const memberParams = v.object({ organizationId: id, userId: id });

const roleOrGuest = [...roles, 'guest'] as const;

/** Case-insensitive "contains" text of the search and title filters. */
const containsText = v.pipe(v.string('must be a string'), v.trim(), maxChars(256));

export const listMembersQuery = v.object({
  ...listQueryEntries,
  order,
  role: v.optional(v.picklist(roleOrGuest, `must be one of ${roleOrGuest.join(', ')}`)),
  search: v.optional(containsText),
  sort: v.optional(v.picklist(['joinedAt', 'lastSeenAt', 'name'], 'must be joinedAt, lastSeenAt or name'), 'joinedAt'),
});

/** `role` is required (null makes the member a guest). */
export const updateMemberBody = v.strictObject({ role: nullableRole });

export const memberSpacesQuery = v.object({ ...listQueryEntries, order });

export const memberTeamsQuery = v.object({ ...listQueryEntries, title: v.optional(containsText) });
