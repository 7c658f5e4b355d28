import { describe, expect, it } from 'vitest';
import { policies } from './index.ts';

/** The declared rules, checked without HTTP: routes and presenters read these same declarations. */
describe('declared policies', () => {
  const open = { editMode: 'live' as const };
  const locked = { editMode: 'locked' as const };

  it('a locked space: no content edits for anyone, settings still for admins', () => {
    expect(policies.space.can({ role: 'edit' }, 'edit', open)).toBe(true);
    expect(policies.space.can({ role: 'admin' }, 'edit', locked)).toBe(false);
    expect(policies.space.can({ role: 'admin' }, 'update', locked)).toBe(true);
    expect(policies.space.can({ role: 'edit' }, 'update', locked)).toBe(false);
    expect(() => policies.space.authorize({ role: 'edit' }, 'update', locked)).toThrow('The space is locked: only admins can change it');
    // The first requirement that fails gives the reason.
    expect(() => policies.space.authorize({ role: 'read' }, 'edit', locked)).toThrow('Editing content requires the edit role on the space');
  });

  it('presented permissions follow the rules they name', () => {
    expect(policies.space.permissions({ role: 'admin' }, locked)).toMatchObject({ admin: true, edit: false, merge: false, triggerGitSync: false, comment: true });
    expect(policies.space.permissions({ role: 'read' }, open)).toMatchObject({ view: true, comment: false, edit: false });
    expect(policies.organization.permissions({ role: undefined })).toMatchObject({ view: false, listMembers: false });
    expect(policies.organization.permissions({ role: null })).toMatchObject({ view: true, listMembers: false, createContent: false });
    expect(policies.site.permissions({ role: 'create' })).toMatchObject({ view: true, edit: true, create: true, admin: false });
    // createContent is the role at the root: the org role raised by defaultRole, never a guest's.
    expect(policies.organization.permissions({ role: 'read' }, { defaultRole: 'create' })).toMatchObject({ createContent: true, createOpenAPISpec: false });
    expect(policies.organization.permissions({ role: null }, { defaultRole: 'create' })).toMatchObject({ createContent: false });
    expect(policies.organization.permissions({ role: 'read' }, { defaultRole: null })).toMatchObject({ createContent: false });
    expect(policies.translation.permissions({ role: 'edit' })).toEqual({ view: true, edit: false });
  });

  it('authorship: the author edits a comment body, an admin deletes it', () => {
    const comment = { postedBy: 'ada' };
    expect(policies.comment.permissions({ role: 'comment', userId: 'ada' }, comment)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(policies.comment.permissions({ role: 'admin', userId: 'bob' }, comment)).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(policies.comment.can({ role: 'read', userId: 'ada' }, 'edit', comment)).toBe(false);
  });

  it('members: admins or the member themself', () => {
    expect(policies.member.can({ role: 'read', userId: 'ada' }, 'remove', { userId: 'ada' })).toBe(true);
    expect(policies.member.can({ role: 'create', userId: 'ada' }, 'remove', { userId: 'bob' })).toBe(false);
    expect(policies.member.can({ role: null, userId: 'ada' }, 'read', { userId: 'ada' })).toBe(true);
    expect(policies.member.can({ role: null, userId: 'ada' }, 'list', { userId: 'ada' })).toBe(false);
  });

  it('change requests: never reviewed by their author; a pending request lets a reader review', () => {
    const cr = { createdBy: 'ada', reviewRequests: { bob: { requestedBy: 'ada', requestedAt: '' } } } as never;
    expect(policies.changeRequest.can({ role: 'admin', userId: 'ada' }, 'review', cr)).toBe(false);
    expect(policies.changeRequest.can({ role: 'read', userId: 'bob' }, 'review', cr)).toBe(true);
    expect(policies.changeRequest.can({ role: 'read', userId: 'eve' }, 'review', cr)).toBe(false);
  });
});
