import type { Write } from '../../db/writes.ts';
import type { Where } from '../../db/conditions.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { ApiError } from '../../http/errors.ts';
import type { Role } from '../../http/schemas.ts';
import { Rejection } from '../retry.ts';

/** What the member commands share: the consistent read, the last-admin rule, conflict errors. */

export const LAST_ADMIN = 'The last admin of an organization cannot be removed or demoted; make another member admin first';

export const changedConcurrently = () => new ApiError(409, 'The member was changed by another request; retry');

export async function readMember(orgId: string, userId: string): Promise<MemberItem | undefined> {
  return memberEntity.get({ orgId, userId }, { consistent: true });
}

/**
 * The last active admin must stay: finds another active admin with a filtered Query
 * (Limit-refilled by queryPage) and returns a ConditionCheck that it still is one when
 * the transaction commits. Two admins demoting each other at once cannot both succeed:
 * each transaction checks the other's role, and DynamoDB serializes them.
 */
export async function anotherAdminCheck(orgId: string, userId: string): Promise<Write<unknown>> {
  const page = await memberEntity.query.byOrg({ orgId }, {
    where: (w) => w.and(activeAdmin(w), w.ne('userId', userId)),
  }).page({ limit: 1 });
  const other = page.items[0];
  if (!other) throw new Rejection(409, LAST_ADMIN);
  return memberEntity.check({ orgId, userId: other.userId }, activeAdmin);
}

export const activeAdmin = (w: Where<MemberItem>) => w.and(w.eq('role', 'admin'), w.eq('disabled', false));

export const isActiveAdmin = (m: MemberItem) => m.role === 'admin' && !m.disabled;

/** Condition that the member's role is still `role` (null needs attribute_type). */
export const roleIs = (role: Role | null) => (w: Where<MemberItem>) => (role === null ? w.isNull('role') : w.eq('role', role));
