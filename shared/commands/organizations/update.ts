import { nowMs } from '../../clock.ts';
import { transact } from '../../db/writes.ts';
import { organizationEntity, type OrganizationItem } from '../../db/entities/organization.ts';
import { emailDomainEntity } from '../../db/entities/org-records.ts';
import { hostnameWrites } from './hostname.ts';
import { conflict } from '../../http/errors.ts';
import { Rejection, retryOnConflict } from '../retry.ts';

/** Fields of an organization a PATCH may set. */
export type OrganizationChanges = Partial<Pick<OrganizationItem,
  'title' | 'emailDomains' | 'hostname' | 'defaultRole' | 'defaultContent' | 'logo' | 'sso' | 'ai' | 'inviteLinks' | 'mergeRules'
>>;

/** Optional fields that a null in the request removes from the stored item. */
export type RemovableField = 'defaultContent' | 'logo';

/**
 * The next `updatedAt`: now, but always later than the previous value, so the optimistic
 * condition `updatedAt = :previous` still tells writes apart that fall in the same millisecond.
 */
export function nextUpdatedAt(previous: string): string {
  const before = Date.parse(previous);
  return new Date(Number.isNaN(before) ? nowMs() : Math.max(nowMs(), before + 1)).toISOString();
}

/**
 * Applies `set` and `remove` to the organization in ONE transaction that also keeps the
 * email-domain index (EMAILDOMAIN#<domain> / ORG#<org>) equal to the new `emailDomains`
 * and the claim of a new `hostname` (hostname.ts).
 * The update is conditioned on the `updatedAt` the index diff was computed from: when a
 * concurrent PATCH got there first, the organization is read again and the change applied
 * to it (a PATCH sets only the fields it names, so two admins changing different settings
 * at once both succeed; the same field: the last write wins).
 */
export async function updateOrganization(
  cached: OrganizationItem,
  set: OrganizationChanges,
  remove: RemovableField[],
): Promise<OrganizationItem> {
  return retryOnConflict(async (attempt) => {
    const org = attempt === 0 ? cached : await organizationEntity.get({ orgId: cached.id }, { consistent: true });
    if (!org) throw new Rejection(404, `No organization found with id ${cached.id}`);
    const updatedAt = nextUpdatedAt(org.updatedAt);
    const before = new Set(org.emailDomains);
    const after = new Set(set.emailDomains ?? org.emailDomains);
    const added = [...after].filter((d) => !before.has(d));
    const removed = [...before].filter((d) => !after.has(d));
    const hostname = await hostnameWrites(org, set.hostname);

    await transact([
      organizationEntity.update({ orgId: org.id }, {
        set: { ...set, updatedAt }, remove, if: (w) => w.eq('updatedAt', org.updatedAt),
      }),
      ...added.map((domain) => emailDomainEntity.put({ domain, orgId: org.id }, { domain, orgId: org.id })),
      ...removed.map((domain) => emailDomainEntity.delete({ domain, orgId: org.id })),
      ...hostname,
    ], () => conflict('The organization was changed by another request; retry'));

    const updated: OrganizationItem = { ...org, ...stripUndefined(set), updatedAt };
    for (const field of remove) delete updated[field];
    return updated;
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
