import type { Key } from '../../db/table.ts';
import type { MemberItem } from '../../db/entities/member.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import { userEntity } from '../../db/entities/user.ts';
import { presentMember } from '../member.ts';
import { ancestorKeys, queryOrgSpaces, readableSpaceCount } from './member-spaces.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * Presents members of one organization: their users and the ancestor collections of the
 * org's spaces come in ONE BatchGet (through the request loader, with `extraKeys`).
 * `spaces` are the org's live spaces (queryOrgSpaces), loaded once per request.
 */
export async function presentMembers(
  request: RequestScope,
  org: OrganizationItem,
  members: MemberItem[],
  spaces: SpaceItem[],
  extraKeys: Key[] = [],
) {
  const loader = request.loader;
  await loader.load([...members.map((m) => userEntity.key({ userId: m.userId })), ...ancestorKeys(spaces), ...extraKeys]);
  return members.map((member) => {
    const user = loader.peek(userEntity.key({ userId: member.userId }));
    return presentMember(member, user ? userEntity.fromRecord(user) : undefined, {
      spaces: readableSpaceCount(member, org, spaces, loader),
    });
  });
}

/** One member, presented (a Query of the org's spaces plus one BatchGet). */
export async function presentOneMember(request: RequestScope, org: OrganizationItem, member: MemberItem) {
  const spaces = await queryOrgSpaces(org.id);
  const [presented] = await presentMembers(request, org, [member], spaces);
  return presented!;
}
