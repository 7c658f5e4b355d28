import { definePolicy, role } from './policy.ts';

/**
 * An integration, for the caller's role in the organization that owns it (or, publishing
 * it first, in the organization that will). Who may see it at all is its visibility (404).
 */
export const integrationPolicy = definePolicy<unknown, 'admin', 'admin'>({
  rules: {
    /** Publish, unpublish, development mode, installations, events, installed spaces and sites. */
    admin: [role('admin', 'Managing an integration requires the admin role in the organization that owns it')],
  },
  presented: { admin: 'admin' },
});
