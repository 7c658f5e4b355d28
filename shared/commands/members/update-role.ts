import { transact, type Write } from '../../db/writes.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import type { Role } from '../../http/schemas.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import { changedConcurrently, readMember, anotherAdminCheck, isActiveAdmin, roleIs } from './store.ts';

/**
 * PATCH member role. Demoting an active admin needs another active admin (409 otherwise).
 * `cached` is the record the request already read; retries read again, consistently.
 */
export async function updateMemberRole(orgId: string, userId: string, role: Role | null, cached?: MemberItem): Promise<MemberItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readMember(orgId, userId);
    if (!current) throw new Rejection(404, `No member found with id ${userId}`);
    const items: Write<unknown>[] = [memberEntity.update({ orgId, userId }, { set: { role }, if: roleIs(current.role) })];
    if (isActiveAdmin(current) && role !== 'admin') items.push(await anotherAdminCheck(orgId, userId));
    await transact(items, changedConcurrently);
    return { ...current, role };
  });
}
