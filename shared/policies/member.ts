import { definePolicy, requirement } from './policy.ts';
import { nonGuest } from './organization.ts';

/** The member a request is about (the caller themself or another). */
type Member = { userId: string };

const adminOrSelf = (reason: string) =>
  requirement<Member>((actor, member) => actor.role === 'admin' || actor.userId === member.userId, reason);

/** Another member of the organization, for the caller's org role. */
export const memberPolicy = definePolicy({
  rules: {
    list: [nonGuest('Guests may not list the members of an organization')],
    read: [requirement<Member>((actor, member) => (actor.role !== null && actor.role !== undefined) || actor.userId === member.userId, 'Guests may only read their own membership')],
    /** Removing a member: an admin, or the member leaving. */
    remove: [adminOrSelf('Removing another member requires the admin role')],
    /** Role and SSO flag. */
    update: [requirement<Member>((actor) => actor.role === 'admin', 'Changing a member requires the admin role')],
    /** The member's spaces and teams. */
    listOwn: [adminOrSelf('Listing another member\'s spaces or teams requires the admin role')],
  },
  presented: {},
});
