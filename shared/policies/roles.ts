import { roles, type Role } from '../http/schemas.ts';

/** Rank of a role: admin 6 > create 5 > review 4 > edit 3 > comment 2 > read 1 > none 0. */
export function roleRank(role: Role | null | undefined): number {
  return role ? roles.length - roles.indexOf(role) : 0;
}

export function atLeast(role: Role | null | undefined, required: Role): boolean {
  return roleRank(role) >= roleRank(required);
}

export function maxRole(...candidates: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const r of candidates) if (roleRank(r) > roleRank(best)) best = r ?? null;
  return best;
}
