import type { Query } from '../db/entity.ts';
import { loadCursorKey, openCursor, sealCursor } from '../http/cursor.ts';
import { installationEntity, type InstallationItem } from '../db/entities/integration.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import { siteEntity, type SiteItem } from '../db/entities/site.ts';

interface Targets { SPACES: SpaceItem; SITES: SiteItem }

export interface TargetPage<T> {
  entries: { installation: InstallationItem; target: T }[];
  next?: string;
}

/** The organization's live spaces (or sites), in creation order. */
const ofOrganization = <K extends keyof Targets>(kind: K, orgId: string) =>
  (kind === 'SPACES' ? spaceEntity.query.byOrg({ orgId }) : siteEntity.query.byOrg({ orgId })) as unknown as Query<Targets[K]>;

interface Cursor { i: string; p?: string }

const isCursor = (value: unknown): value is Cursor => typeof value === 'object' && value !== null
  && typeof (value as Cursor).i === 'string' && ((value as Cursor).p === undefined || typeof (value as Cursor).p === 'string');

/**
 * The spaces or sites an integration is installed on, installation by installation (in id
 * order). An installation with `space_selection`/`site_selection` `all` covers every live
 * space (site) of its organization, listed from the org's gsi1 partition
 * (ORG#<org>#SPACES / ORG#<org>#SITES). The cursor names the installation and the page
 * inside its organization's list.
 */
export async function listInstalledTargets<K extends keyof Targets>(
  integrationName: string,
  kind: K,
  options: { limit: number; page?: string; externalId?: string; keep?: (target: Targets[K]) => boolean },
): Promise<TargetPage<Targets[K]>> {
  await loadCursorKey();
  const scope = `integration-targets:${integrationName}:${kind}`;
  const cursor = options.page ? openCursor(options.page, scope, isCursor) : undefined;
  const encode = (value: Cursor) => sealCursor(scope, value);
  const { externalId } = options;
  const installations = await installationEntity.query.ofIntegration({ name: integrationName }, {
    where: externalId ? (w) => w.contains('externalIds', externalId) : undefined,
  }).all();
  let start = 0;
  if (cursor) {
    start = installations.findIndex((i) => i.id >= cursor.i);
    if (start < 0) return { entries: [] };
  }
  const entries: TargetPage<Targets[K]>['entries'] = [];
  for (let n = start; n < installations.length; n++) {
    const installation = installations[n]!;
    const selection = kind === 'SPACES' ? installation.space_selection : installation.site_selection;
    let inner = cursor && n === start && installation.id === cursor.i ? cursor.p : undefined;
    if (selection !== 'all') continue;
    do {
      const page = await ofOrganization(kind, installation.orgId).page({ limit: options.limit - entries.length, cursor: inner });
      for (const target of page.items) if (!options.keep || options.keep(target)) entries.push({ installation, target });
      inner = page.next;
      if (entries.length >= options.limit) {
        if (inner) return { entries, next: encode({ i: installation.id, p: inner }) };
        const following = installations[n + 1];
        return { entries, ...(following ? { next: encode({ i: following.id }) } : {}) };
      }
    } while (inner);
  }
  return { entries };
}
