import { transact } from '../../db/writes.ts';
import { TransactionConflict } from '../../db/errors.ts';
import { organizationEntity, type OrganizationItem } from '../../db/entities/organization.ts';
import { memberEntity } from '../../db/entities/member.ts';
import type { UserItem } from '../../db/entities/user.ts';
import type { Role } from '../../http/schemas.ts';
import { ApiError, badRequest, forbidden } from '../../http/errors.ts';
import { newMember } from '../members/add.ts';
import { isPublicEmailDomain } from './public-email-domains.ts';

/** Lower-cased domain of an email address ('' when it has none). */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

/**
 * Whether the user may join by email domain: a verified address in one of the org's domains,
 * never a public provider's (a claim stored before they were refused opens nothing).
 */
export function mayJoinByEmailDomain(user: UserItem, org: Pick<OrganizationItem, 'emailDomains'>): boolean {
  const domain = emailDomainOf(user.email);
  return user.emailVerified && org.emailDomains.includes(domain) && !isPublicEmailDomain(domain);
}

/**
 * Role given to a member who joins by email domain: the organization's `defaultRole`,
 * or `read` when that is null (a joiner must not end up a guest who sees nothing).
 */
export function joinRole(org: Pick<OrganizationItem, 'defaultRole'>): Role {
  return org.defaultRole ?? 'read';
}

/**
 * An organization with `sso` on takes new members only through its SAML providers
 * (shared/commands/sso/login.ts): joining by email domain is refused.
 */
function ssoRequired(org: Pick<OrganizationItem, 'id'>): ApiError {
  return forbidden(`sso: organization ${org.id} requires single sign-on; new members join by signing in through one of its SSO providers (GET /v1/orgs/${org.id}/sso)`);
}

/** The organization's commit-time condition failed: read it again to say which part. */
class OrganizationChanged extends ApiError {
  constructor() {
    super(409, 'The organization changed while joining');
  }
}

async function joinRefused(orgId: string): Promise<ApiError> {
  const org = await organizationEntity.get({ orgId }, { consistent: true });
  return org?.sso === true ? ssoRequired({ id: orgId }) : badRequest("The user's email domain is not valid");
}

class AlreadyMember extends ApiError {
  constructor() {
    super(409, 'Already a member');
  }
}

/**
 * Adds `user` to `org` as `joinRole(org)` in one transaction that re-checks, at commit
 * time, that the organization still allows the user's email domain and does not enforce
 * SSO (403 when it does). Returns false when
 * the user became a member meanwhile (a concurrent join): joining is idempotent.
 */
export async function joinOrganization(org: OrganizationItem, user: UserItem): Promise<boolean> {
  if (org.sso) throw ssoRequired(org);
  const member = newMember(org.id, user, joinRole(org));
  try {
    await transact([
      // Re-checked at commit: the domain is still allowed and SSO was not enforced meanwhile.
      organizationEntity.check({ orgId: org.id }, (w) => w.and(
        w.exists(), w.contains('emailDomains', emailDomainOf(user.email)), w.or(w.lacks('sso'), w.ne('sso', true)),
      )),
      memberEntity.create({ orgId: org.id, userId: user.id }, member),
    ], (index) => (index === 0 ? new OrganizationChanged() : new AlreadyMember()));
  } catch (error) {
    if (error instanceof AlreadyMember) return false;
    if (error instanceof OrganizationChanged) throw await joinRefused(org.id);
    // A concurrent transaction on the same items (TransactionConflict): when it was the
    // same user joining, the membership exists now and this join is done too.
    if ((error instanceof TransactionConflict || (error instanceof ApiError && error.status === 409))
      && await memberEntity.get({ orgId: org.id, userId: user.id }, { consistent: true })) return false;
    throw error;
  }
  return true;
}
