import type { DefaultLevel, Role } from '../http/schemas.ts';
import type { MemberItem } from '../db/entities/member.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import { maxRole } from './roles.ts';

/** Anything with a defaultLevel: a space or a collection. */
export interface LevelHolder {
  defaultLevel: DefaultLevel;
}

/**
 * The caller's role on a space or collection (docs/permissions.md):
 * - not a member, or a disabled member: no role;
 * - org admin: admin everywhere;
 * - guest (org role null): no role (guests see only what is shared with them directly);
 * - otherwise the higher of the org role and the inherited default level, where the
 *   inherited level is the first explicit `defaultLevel` on the way from the resource up
 *   through its ancestor collections, else the organization's `defaultRole`.
 */
export function effectiveRole(
  member: MemberItem | undefined,
  org: OrganizationItem,
  chain: LevelHolder[], // the resource first, then its parent, grand-parent, ...
): Role | null {
  if (!member || member.disabled || member.role === null) return null;
  if (member.role === 'admin') return 'admin';
  return maxRole(member.role, inheritedLevel(org, chain));
}

/**
 * The role at the organization's root from an org role (null: guest, undefined: not a
 * member): what effectiveRole gives with no collection above. A role already raised this
 * way passes through unchanged, so checks may be given either.
 */
export function roleAtRoot(role: Role | null | undefined, org: Pick<OrganizationItem, 'defaultRole'>): Role | null {
  if (!role) return null;
  if (role === 'admin') return 'admin';
  return maxRole(role, org.defaultRole);
}

export function inheritedLevel(org: OrganizationItem, chain: LevelHolder[]): Role | null {
  for (const holder of chain) if (holder.defaultLevel !== 'inherit') return holder.defaultLevel;
  return org.defaultRole;
}
