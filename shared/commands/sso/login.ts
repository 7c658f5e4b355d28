import { createHmac } from 'node:crypto';
import { nowEpochSeconds, nowIso } from '../../clock.ts';
import { derivedKey } from '../../secrets/keys.ts';
import { transact, type Write } from '../../db/writes.ts';
import { organizationEntity, type OrganizationItem } from '../../db/entities/organization.ts';
import { userEntity, type UserItem } from '../../db/entities/user.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamItem, type TeamMemberItem } from '../../db/entities/team.ts';
import type { SAMLProviderItem } from '../../db/entities/saml-provider.ts';
import type { Role } from '../../http/schemas.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { maxRole } from '../../policies/roles.ts';
import { createAccessToken } from '../tokens/create.ts';
import { newMember } from '../members/add.ts';
import { joinRole } from '../organizations/join.ts';
import { readTeam } from '../teams/store.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import type { SSOIdentity } from '../../sso/identity.ts';
import { ssoTokenTtlSeconds } from '../../sso/settings.ts';

export interface SSOLogin {
  user: UserItem;
  member: MemberItem;
  token: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/**
 * What a verified SAML login does (JIT provisioning): the person is found by email or
 * created, becomes a member with the provider's defaultRole (else the organization's
 * join role) or keeps a higher one, joins the provider's defaultTeam, is marked `sso`
 * and seen now; then gets an access token that expires after SSO_TOKEN_TTL.
 *
 * The organization's IdP asserts any email it likes. So the token handed over opens this
 * organization only (`orgId`, shared/http/token-binding.ts): an IdP speaks for its own
 * organization, not for the person's others. And an account that exists signs in only once it is a
 * member (it joined itself, or accepted an invitation), whatever its domain: `emailDomains`
 * are claimed by any admin without proof of ownership. And an account a login creates has
 * an email the service never verified (emailVerified false), so it cannot join other
 * organizations by that domain.
 */
export async function signInWithSAML(provider: SAMLProviderItem, identity: SSOIdentity): Promise<SSOLogin> {
  const org = await organizationEntity.get({ orgId: provider.orgId }, { consistent: true });
  if (!org) throw notFound(`No organization found with id ${provider.orgId}`);
  const role = provider.defaultRole ?? joinRole(org);
  const { user, member } = await retryOnConflict(() => provision(provider, org, identity, role));
  const expiresAt = nowEpochSeconds() + ssoTokenTtlSeconds();
  const token = await createAccessToken(user.id, `SSO: ${provider.label}`, { expiresAt, orgId: org.id });
  return { user, member, token, expiresAt };
}

async function provision(provider: SAMLProviderItem, org: OrganizationItem, identity: SSOIdentity, role: Role) {
  const now = nowIso();
  const existing = await findUser(identity.email);
  const user: UserItem = existing ?? {
    id: await ssoUserId(identity.email), displayName: identity.displayName, email: identity.email,
    emailVerified: false, createdAt: now, updatedAt: now,
  };
  const current = existing ? await memberEntity.get({ orgId: org.id, userId: user.id }, { consistent: true }) : undefined;
  if (existing && !current) {
    throw new Rejection(403, 'An account with this email already exists and is not a member of this organization: it signs in with SSO once the person has joined (by invitation or by email domain)');
  }
  if (current?.disabled) throw new Rejection(403, 'Your membership of this organization is disabled');
  const team = provider.defaultTeam ? await readTeam(org.id, provider.defaultTeam) : undefined;
  const joinsTeam = team !== undefined
    && !(current && await teamMemberEntity.get({ orgId: org.id, teamId: team.id, userId: user.id }, { consistent: true }));

  const writes: Write<unknown>[] = [];
  let member: MemberItem;
  if (current) {
    member = { ...current, role: maxRole(current.role, role), sso: true, lastSeenAt: now, teams: current.teams + (joinsTeam ? 1 : 0) };
    writes.push(updateMember(current, member, joinsTeam));
  } else {
    member = { ...newMember(org.id, user, role), sso: true, lastSeenAt: now, teams: joinsTeam ? 1 : 0 };
    // Only a new person gets here (an existing account must be a member already).
    writes.push(userEntity.create({ userId: user.id }, user));
    writes.push(memberEntity.create({ orgId: org.id, userId: user.id }, member));
  }
  if (team && joinsTeam) writes.push(...joinTeamWrites(team, user.id, now));
  // Any failed condition means a concurrent login or change got there first: 409, retried from a fresh read.
  await transact(writes, () => new ApiError(409, 'A concurrent request changed the same member; retry'));
  return { user, member };
}

/** Sets sso, lastSeenAt (and its index), a higher role, one more team; on the member as it was read. */
function updateMember(before: MemberItem, after: MemberItem, joinsTeam: boolean): Write<unknown> {
  const roleChanges = after.role !== before.role;
  return memberEntity.update({ orgId: before.orgId, userId: before.userId }, {
    set: { sso: true, lastSeenAt: after.lastSeenAt, ...(roleChanges ? { role: after.role } : {}) },
    reindex: after,
    ...(joinsTeam ? { add: { teams: 1 } } : {}),
    if: (w) => w.and(
      w.eq('disabled', false),
      roleChanges && (before.role === null ? w.isNull('role') : w.eq('role', before.role)),
    ),
  });
}

function joinTeamWrites(team: TeamItem, userId: string, now: string): Write<unknown>[] {
  const membership: TeamMemberItem = { orgId: team.orgId, teamId: team.id, userId, role: 'member', addedAt: now, titleLower: team.titleLower };
  return [
    teamMemberEntity.create({ orgId: team.orgId, teamId: team.id, userId }, membership),
    teamEntity.add({ orgId: team.orgId, teamId: team.id }, { members: 1 }),
  ];
}

/** The account with this email: by the email index, else the one an earlier SSO login created (index not caught up yet). */
async function findUser(email: string): Promise<UserItem | undefined> {
  const found = (await userEntity.query.byEmail({ email }).page({ limit: 1 })).items[0];
  if (found) {
    const user = await userEntity.get({ userId: found.id }, { consistent: true });
    if (user) return user;
  }
  return userEntity.get({ userId: await ssoUserId(email) }, { consistent: true });
}

/** Id of the user an SSO login creates: keyed on the email, so concurrent first logins create one user (exported for tests). */
export async function ssoUserId(email: string): Promise<string> {
  return createHmac('sha256', await derivedKey('sso-user-id')).update(email.toLowerCase()).digest('hex').slice(0, 24);
}
