import { queryAll, queryPage } from '../db/operations.ts';
import { loadCursorKey, openCursor, sealCursor } from '../http/cursor.ts';
import { installationEntity, integrationEntity, type InstallationItem } from '../db/entities/integration.ts';

export interface TargetPage {
  entries: { installation: InstallationItem; record: Record<string, unknown> }[];
  next?: string;
}

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
export async function listInstalledTargets(
  integrationName: string,
  kind: 'SPACES' | 'SITES',
  options: { limit: number; page?: string; externalId?: string; keep?: (record: Record<string, unknown>) => boolean },
): Promise<TargetPage> {
  await loadCursorKey();
  const scope = `integration-targets:${integrationName}:${kind}`;
  const cursor = options.page ? openCursor(options.page, scope, isCursor) : undefined;
  const encode = (value: Cursor) => sealCursor(scope, value);
  const installations = (await queryAll({
    partition: integrationEntity.key({ name: integrationName }).pk, prefix: 'INSTALLATION#',
    filter: options.externalId ? { expression: 'contains(externalIds, :e)', values: { ':e': options.externalId } } : undefined,
  })).map((r) => installationEntity.fromRecord(r));
  let start = 0;
  if (cursor) {
    start = installations.findIndex((i) => i.id >= cursor.i);
    if (start < 0) return { entries: [] };
  }
  const entries: TargetPage['entries'] = [];
  for (let n = start; n < installations.length; n++) {
    const installation = installations[n]!;
    const selection = kind === 'SPACES' ? installation.space_selection : installation.site_selection;
    let inner = cursor && n === start && installation.id === cursor.i ? cursor.p : undefined;
    if (selection !== 'all') continue;
    do {
      const page = await queryPage({ index: 'gsi1', partition: `ORG#${installation.orgId}#${kind}`, limit: options.limit - entries.length, cursor: inner });
      for (const record of page.records) if (!options.keep || options.keep(record)) entries.push({ installation, record });
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
