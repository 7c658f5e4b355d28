import { run } from '../../db/writes.ts';
import { NotFound } from '../../db/errors.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { ApiError } from '../../http/errors.ts';

/** Sets a member attribute that needs no invariant (sso); 404 when not a member. */
export async function setMemberAttributes(orgId: string, userId: string, values: Partial<Pick<MemberItem, 'sso'>>): Promise<MemberItem> {
  try {
    return await run(memberEntity.update({ orgId, userId }, { set: values }));
  } catch (error) {
    if (error instanceof NotFound) throw new ApiError(404, `No member found with id ${userId}`);
    throw error;
  }
}
