import { definePolicy, role } from './policy.ts';

const members = role('read', 'Sites are visible to organization members only (guests have no access)');

/** A site, for the caller's org role (sites have no defaultLevel). */
export const sitePolicy = definePolicy({
  rules: {
    read: [members],
    edit: [members, role('edit', 'This site operation requires the edit role in the organization')],
    /** Structure (site spaces, sections, groups) and publishing. */
    create: [members, role('create', 'Changing a site\'s content structure or publishing it requires the create role in the organization')],
    /** PATCH, delete, adaptive schema, share links. */
    admin: [members, role('admin', 'This site operation requires the admin role in the organization')],
  },
  presented: {
    view: 'read', access: 'read', edit: 'edit', create: 'create', admin: 'admin', installIntegration: 'admin',
    viewAdaptiveSchema: 'read', editAdaptiveSchema: 'admin',
  },
});
