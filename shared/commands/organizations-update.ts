import { config } from '../config.ts';
import { nowMs } from '../clock.ts';
import { transact } from '../db/operations.ts';
import { organizationEntity, type OrganizationItem } from '../db/entities/organization.ts';
import { emailDomainEntity } from '../db/entities/org-records.ts';
import { conflict } from '../http/errors.ts';

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
 * email-domain index (EMAILDOMAIN#<domain> / ORG#<org>) equal to the new `emailDomains`.
 * The update is conditioned on the `updatedAt` the caller read: a concurrent change
 * makes this one fail with 409 instead of computing the index from a stale list.
 */
export async function updateOrganization(
  org: OrganizationItem,
  set: OrganizationChanges,
  remove: RemovableField[],
): Promise<OrganizationItem> {
  const updatedAt = nextUpdatedAt(org.updatedAt);
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': updatedAt, ':previous': org.updatedAt };
  const assignments = ['#updatedAt = :updatedAt'];
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    assignments.push(`#${field} = :${field}`);
  }
  for (const field of remove) names[`#${field}`] = field;
  const expression = `SET ${assignments.join(', ')}${remove.length ? ` REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : ''}`;

  const before = new Set(org.emailDomains);
  const after = new Set(set.emailDomains ?? org.emailDomains);
  const added = [...after].filter((d) => !before.has(d));
  const removed = [...before].filter((d) => !after.has(d));

  await transact([
    {
      Update: {
        TableName: config.tableName,
        Key: organizationEntity.key({ orgId: org.id }),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk) AND #updatedAt = :previous',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...added.map((domain) => ({
      Put: { TableName: config.tableName, Item: emailDomainEntity.toRecord({ domain, orgId: org.id }, { domain, orgId: org.id }) },
    })),
    ...removed.map((domain) => ({
      Delete: { TableName: config.tableName, Key: emailDomainEntity.key({ domain, orgId: org.id }) },
    })),
  ], () => conflict('The organization was changed by another request; retry'));

  const updated: OrganizationItem = { ...org, ...stripUndefined(set), updatedAt };
  for (const field of remove) delete updated[field];
  return updated;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
