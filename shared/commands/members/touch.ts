import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { ConditionFailed, NotFound } from '../../db/errors.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { ApiError } from '../../http/errors.ts';

/**
 * Ping: lastSeenAt = now, which puts the member in the sparse gsi3 (members by last seen).
 * Never moves lastSeenAt backwards when pings race; 404 when the membership is gone.
 */
export async function touchMember(member: MemberItem): Promise<MemberItem> {
  const lastSeenAt = nowIso();
  const seen: MemberItem = { ...member, lastSeenAt };
  try {
    await run(memberEntity.update({ orgId: member.orgId, userId: member.userId }, {
      set: { lastSeenAt }, reindex: seen, if: (w) => w.or(w.lacks('lastSeenAt'), w.lt('lastSeenAt', lastSeenAt)),
    }));
    return seen;
  } catch (error) {
    if (error instanceof NotFound) throw new ApiError(404, `No organization found with id ${member.orgId}`);
    if (error instanceof ConditionFailed) return memberEntity.fromRecord(error.item!); // a concurrent ping recorded a later time
    throw error;
  }
}
