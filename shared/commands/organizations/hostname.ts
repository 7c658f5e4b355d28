import { config } from '../../config.ts';
import { hostnameEntity } from '../../db/entities/org-records.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import type { Write } from '../../db/writes.ts';
import { Rejection } from '../retry.ts';

/** The host name an organization starts with: `<org id>.<PUBLISHED_DOMAIN>`. */
export const defaultHostname = (orgId: string): string => `${orgId.toLowerCase()}.${config.publishedDomain}`;

const underPublishedDomain = (hostname: string) =>
  hostname === config.publishedDomain || hostname.endsWith(`.${config.publishedDomain}`);

/**
 * What changing an organization's host name writes besides the organization: a host name is
 * one organization's, as the URLs of its published content (`urls.published`) are. Under the
 * published domain only the organization's own default name is allowed (those are unique by
 * id and have no claim); any other name is claimed (HOSTNAME#<name>, created or already this
 * organization's), and the name it leaves is released. A name another organization holds is
 * 409; a claim made meanwhile fails the transaction's condition and the retried change reads it.
 */
export async function hostnameWrites(org: OrganizationItem, next: string | undefined): Promise<Write<unknown>[]> {
  if (next === undefined || next === org.hostname) return [];
  const own = defaultHostname(org.id);
  if (underPublishedDomain(next) && next !== own) {
    throw new Rejection(400, `hostname: under ${config.publishedDomain} an organization has only its own ${own}`);
  }
  const taken = next === own ? undefined : await hostnameEntity.get({ hostname: next }, { consistent: true });
  if (taken && taken.orgId !== org.id) throw new Rejection(409, `hostname: ${next} is already used by another organization`);
  const writes: Write<unknown>[] = [];
  if (next !== own) {
    writes.push(hostnameEntity.put({ hostname: next }, { hostname: next, orgId: org.id }, (w) => w.or(w.absent(), w.eq('orgId', org.id))));
  }
  if (org.hostname !== own && !underPublishedDomain(org.hostname)) {
    writes.push(hostnameEntity.delete({ hostname: org.hostname }, (w) => w.or(w.absent(), w.eq('orgId', org.id))));
  }
  return writes;
}
