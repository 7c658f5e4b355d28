import { definePolicy, requirement, role } from './policy.ts';

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
    /** Spaces and collections at the root (with the effective role at the root: the org role or defaultRole). */
    createContent: [role('create', 'Adding content at the organization root requires the create role')],
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
