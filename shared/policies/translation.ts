import { definePolicy, role } from './policy.ts';
import { nonGuest } from './organization.ts';

/** A translation, for the caller's org role: a run creates and writes the result space. */
export const translationPolicy = definePolicy<unknown, 'read' | 'edit', 'view' | 'edit'>({
  rules: {
    read: [nonGuest('Guests may not read the translations of an organization')],
    /** Create, PUT, delete, run. */
    edit: [role('create', 'Creating, updating, deleting or running a translation requires the create role')],
  },
  presented: { view: 'read', edit: 'edit' },
});
