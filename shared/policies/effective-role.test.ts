import { describe, expect, it } from 'vitest';
import { effectiveRole, inheritedLevel, type LevelHolder } from './effective-role.ts';
import type { MemberItem } from '../db/entities/member.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Role } from '../http/schemas.ts';

// Only the fields the rule reads matter; the rest are fixed placeholders.
const member = (role: Role | null, disabled = false): MemberItem => ({
  orgId: 'org', userId: 'user', role, joinedAt: '2024-01-01T00:00:00.000Z', sso: false, disabled, teams: 0, searchText: '',
});
const org = (defaultRole: Role | null): OrganizationItem => ({ defaultRole } as OrganizationItem);
const chain = (...levels: LevelHolder['defaultLevel'][]): LevelHolder[] => levels.map((defaultLevel) => ({ defaultLevel }));

describe('effectiveRole (docs/permissions.md)', () => {
  it('gives no role to non-members, disabled members and guests, whatever the inherited level', () => {
    const everyoneAdmin = chain('admin');
    expect(effectiveRole(undefined, org('admin'), everyoneAdmin)).toBeNull();
    expect(effectiveRole(member('admin', true), org('admin'), everyoneAdmin)).toBeNull();
    expect(effectiveRole(member('edit', true), org('read'), chain())).toBeNull();
    expect(effectiveRole(member(null), org('admin'), everyoneAdmin)).toBeNull();
  });

  it('makes an organization admin admin everywhere, even where the level is explicitly none', () => {
    expect(effectiveRole(member('admin'), org(null), chain(null))).toBe('admin');
    expect(effectiveRole(member('admin'), org('read'), chain('read', 'comment'))).toBe('admin');
  });

  it('takes the higher of the organization role and the inherited level', () => {
    expect(effectiveRole(member('read'), org(null), chain('edit'))).toBe('edit');
    expect(effectiveRole(member('create'), org(null), chain('edit'))).toBe('create');
    expect(effectiveRole(member('comment'), org('review'), chain())).toBe('review');
    expect(effectiveRole(member('review'), org('comment'), chain())).toBe('review');
  });

  it('keeps the organization role where the level is explicitly none (null)', () => {
    expect(effectiveRole(member('read'), org('edit'), chain(null, 'admin'))).toBe('read');
  });
});

describe('inheritedLevel', () => {
  it('is the first explicit level from the resource up through its collections', () => {
    expect(inheritedLevel(org('read'), chain('inherit', 'comment', 'edit'))).toBe('comment');
    expect(inheritedLevel(org('read'), chain('review', 'edit'))).toBe('review');
    expect(inheritedLevel(org('read'), chain('inherit', null, 'edit'))).toBeNull();
  });

  it('falls back to the organization\'s default role when every holder inherits', () => {
    expect(inheritedLevel(org('comment'), chain('inherit', 'inherit'))).toBe('comment');
    expect(inheritedLevel(org(null), chain('inherit'))).toBeNull();
    expect(inheritedLevel(org('edit'), [])).toBe('edit');
  });
});
