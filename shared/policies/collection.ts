import { definePolicy, role } from './policy.ts';

/** A collection, for the caller's effective role on it. */
export const collectionPolicy = definePolicy<unknown, 'read' | 'create' | 'admin', 'view' | 'admin' | 'viewInviteLinks' | 'create'>({
  rules: {
    read: [role('read', 'Reading the collection requires the read role on it')],
    /** Adding a space or collection inside it. */
    create: [role('create', 'Adding to a collection requires the create role on it')],
    /** PATCH, delete, move, transfer. */
    admin: [role('admin', 'This requires the admin role on the collection')],
  },
  presented: { view: 'read', admin: 'admin', viewInviteLinks: 'admin', create: 'create' },
});
