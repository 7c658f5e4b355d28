import { definePolicy, requirement, role } from './policy.ts';
import { atLeast } from './roles.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import { roleAtRoot } from './effective-role.ts';

/** Guests (org role null) see only what is shared with them directly. */
export const nonGuest = (reason: string) => role('read', reason);

/**
 * An organization, for the caller's org role (null: guest; undefined: not a member, who
 * reaches no organization route: see loadOrgAccess).
 */
export const organizationPolicy = definePolicy({
  rules: {
    view: [requirement((actor) => actor.role !== undefined, 'Only members can see the organization')],
    /** Lists and reads beyond the organization itself: members, teams, integrations, conversations, OpenAPI specs. */
    browse: [nonGuest('Guests have no access to this part of the organization')],
    admin: [role('admin', 'This requires the admin role in the organization')],
    /** PATCH the organization itself. */
    update: [role('admin', 'Updating an organization requires the admin role')],
    /**
     * Spaces and collections at the root: the role there is the org role raised by the
     * organization's defaultRole (roleAtRoot), so a `read` member of an organization whose
     * defaultRole is `create` may, and `permissions.createContent` says so.
     */
    createContent: [requirement((actor, org) => atLeast(hasDefaultRole(org) ? roleAtRoot(actor.role, org) : actor.role, 'create'),
      'Adding content at the organization root requires the create role')],
    createOpenAPISpec: [role('create', 'Managing OpenAPI specs requires the create role or above (createOpenAPISpec)')],
    ingestConversations: [role('edit', 'Ingesting conversations requires the edit role')],
    installIntegration: [role('admin', 'Installing an integration requires the admin role in the organization')],
  },
  presented: {
    view: 'view', admin: 'admin', ownTeam: 'admin', createContent: 'createContent', createOpenAPISpec: 'createOpenAPISpec',
    ingestConversations: 'ingestConversations', viewBilling: 'admin', listMembers: 'browse', listTeams: 'browse',
    listIntegrations: 'browse', listInstallations: 'admin', installIntegration: 'installIntegration',
  },
});

/** The organization, when a check was given it (routes pass the caller's role at the root already raised). */
function hasDefaultRole(org: unknown): org is Pick<OrganizationItem, 'defaultRole'> {
  return typeof org === 'object' && org !== null && 'defaultRole' in org;
}
