import { definePolicy, role } from './policy.ts';
import { nonGuest } from './organization.ts';

/** A team, for the caller's org role. */
export const teamPolicy = definePolicy<unknown, 'read' | 'admin', 'view' | 'admin'>({
  rules: {
    read: [nonGuest('Guests may not read the teams of an organization')],
    /** Create, rename, delete. */
    admin: [role('admin', 'Creating, renaming or deleting a team requires the admin role')],
  },
  presented: { admin: 'admin', view: 'read' },
});
