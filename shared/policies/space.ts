import type { SpaceItem } from '../db/entities/space.ts';
import { definePolicy, requirement, role } from './policy.ts';

type Space = Pick<SpaceItem, 'editMode'>;

/** `editMode: locked` blocks every content change, admins included (they can still unlock). */
const unlocked = (reason: string) => requirement<Space>((_, space) => space.editMode !== 'locked', reason);

/** A space, for the caller's effective role on it (docs/permissions.md). */
export const spacePolicy = definePolicy({
  rules: {
    read: [role('read', 'Reading the space requires the read role on it')],
    comment: [role('comment', 'Commenting requires the comment role on the space')],
    review: [role('review', 'Reviewing requires the review role on the space')],
    /** Content: edits, change requests, merges, templates, Git imports. */
    edit: [role('edit', 'Editing content requires the edit role on the space'), unlocked('The space is locked: its content cannot be edited')],
    /** Git export and the legacy Git installation: they do not change the content. */
    sync: [role('edit', 'Git sync requires the edit role on the space')],
    /** PATCH title, emoji, language. */
    update: [
      role('edit', 'Updating a space requires the edit role on it'),
      requirement<Space>((actor, space) => actor.role === 'admin' || space.editMode !== 'locked', 'The space is locked: only admins can change it'),
    ],
    /** PATCH editMode, defaultLevel, mergeRules; delete, restore, move, transfer. */
    admin: [role('admin', 'This requires the admin role on the space')],
  },
  presented: {
    view: 'read', access: 'read', admin: 'admin', viewInviteLinks: 'admin', edit: 'edit', triggerGitSync: 'edit',
    comment: 'comment', merge: 'edit', review: 'review', installIntegration: 'admin',
  },
});
