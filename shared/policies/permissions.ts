import type { Role } from '../http/schemas.ts';
import type { SpaceItem } from '../db/entities/space.ts';
import { atLeast } from './roles.ts';

/** What each role may do, per resource. Responses' `permissions` come from here. */

export function spacePermissions(role: Role | null, space: Pick<SpaceItem, 'editMode'>) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: atLeast(role, 'edit') && space.editMode !== 'locked',
    triggerGitSync: atLeast(role, 'edit') && space.editMode !== 'locked',
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'edit') && space.editMode !== 'locked',
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

export function collectionPermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

/** Organization permissions from the member's org role (null: guest; undefined: not a member). */
export function organizationPermissions(role: Role | null | undefined) {
  const member = role !== undefined;
  const admin = role === 'admin';
  return {
    view: member,
    admin,
    ownTeam: admin,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    ingestConversations: atLeast(role, 'edit'),
    viewBilling: admin,
    listMembers: member && role !== null,
    listTeams: member && role !== null,
    listIntegrations: member && role !== null,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function teamPermissions(role: Role | null | undefined) {
  return { admin: role === 'admin', view: role !== undefined && role !== null };
}

/**
 * A comment or comment reply, for the caller: `edit` (its body) is the author's alone;
 * `reply` (and react) needs the comment role; `delete` the author or a space admin.
 * Every write also needs the comment role on the space.
 */
export function commentPermissions(role: Role | null, isAuthor: boolean) {
  const canComment = atLeast(role, 'comment');
  return {
    view: atLeast(role, 'read'),
    edit: isAuthor && canComment,
    reply: canComment,
    delete: (isAuthor && canComment) || atLeast(role, 'admin'),
  };
}

/** Resolving or reopening a comment: its author or a space admin (as the public interface says for comment updates). */
export function canResolveComment(role: Role | null, isAuthor: boolean): boolean {
  return (isAuthor && atLeast(role, 'comment')) || atLeast(role, 'admin');
}
