import { nowIso } from '../../clock.ts';
import { sha256Hex } from '../../ids.ts';
import { transact } from '../../db/writes.ts';
import { putBytesBlob } from '../../content/blobs.ts';
import { conflict } from '../../http/errors.ts';
import { installationEntity, integrationEntity, type IntegrationItem } from '../../db/entities/integration.ts';
import { emitEvents, newEvent } from '../../integrations/events.ts';
import { sealSecrets } from '../../integrations/secrets.ts';

function hostnames(patterns: string[]): string[] {
  return patterns.flatMap((p) => {
    try {
      return [new URL(p.replace(/\*/g, 'x')).hostname.replace(/^x\./, '')];
    } catch {
      return [];
    }
  });
}

/**
 * What a publication sends, as the publish route validated it (publishBody in
 * functions/integrations/schemas.ts): the stored fields, plus the icon, preview images and
 * script to store as blobs, the owning organization and the secrets in the clear.
 */
export type IntegrationPublication = Pick<IntegrationItem,
  'runtime' | 'title' | 'description' | 'summary' | 'visibility' | 'target' | 'scopes' | 'categories'
  | 'contentSources' | 'externalLinks' | 'configurations' | 'contentSecurityPolicy'> & {
  /** Stored as given; each block's `urlUnfurl` patterns feed the catalog's domain filter. */
  blocks: { urlUnfurl?: string[] }[];
  icon?: string;
  previewImages: string[];
  script?: string;
  organization: string;
  secrets: Record<string, string>;
};

/**
 * Publishes (creates, version 1) or updates (version + 1) an integration. Icon, preview
 * images and script go to S3 blobs; secrets are kept as sha256 hashes and sealed for the
 * runtime (shared/integrations/secrets.ts). The version check makes concurrent publishes of
 * the same name fail with 409 instead of losing one. A new script sends every installation
 * an `installation_setup` event with `previous` (the installation as it was), so the new
 * version sets itself up.
 */
export async function publishIntegration(name: string, body: IntegrationPublication, existing: IntegrationItem | undefined): Promise<IntegrationItem> {
  const now = nowIso();
  const [iconBlob, scriptBlob, ...previewImageBlobs] = await Promise.all([
    body.icon !== undefined ? putBytesBlob(Buffer.from(body.icon, 'base64'), 'image/png') : Promise.resolve(undefined),
    body.script !== undefined ? putBytesBlob(Buffer.from(body.script, 'utf8'), 'application/javascript') : Promise.resolve(undefined),
    ...body.previewImages.map((img) => putBytesBlob(Buffer.from(img, 'base64'), 'image/png')),
  ]);
  const blocks = body.blocks;
  const createdAt = existing?.createdAt ?? now;
  const item: IntegrationItem = {
    name,
    version: (existing?.version ?? 0) + 1,
    runtime: body.runtime,
    title: body.title,
    description: body.description,
    ...(body.summary !== undefined ? { summary: body.summary } : {}),
    ...(iconBlob ? { iconBlob } : existing?.iconBlob ? { iconBlob: existing.iconBlob } : {}),
    previewImageBlobs: previewImageBlobs as string[],
    visibility: body.visibility,
    target: body.target,
    scopes: [...new Set(body.scopes)],
    categories: [...new Set(body.categories)],
    blocks,
    contentSources: body.contentSources,
    externalLinks: body.externalLinks,
    configurations: body.configurations,
    ...(scriptBlob ? { scriptBlob } : existing?.scriptBlob ? { scriptBlob: existing.scriptBlob } : {}),
    ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
    secretHashes: Object.fromEntries(Object.entries(body.secrets).map(([k, v]) => [k, sha256Hex(v)])),
    ...(Object.keys(body.secrets).length ? { sealedSecrets: await sealSecrets(body.secrets, name, createdAt) } : {}),
    ownerOrgId: existing?.ownerOrgId ?? body.organization,
    searchText: `${name} ${body.title}`.toLowerCase(),
    blockDomains: [...new Set(blocks.flatMap((b: { urlUnfurl?: string[] }) => hostnames(b.urlUnfurl ?? [])))],
    hasBlocks: blocks.length > 0,
    hasContentSources: body.contentSources.length > 0,
    ...(existing?.devTunnelUrl ? { devTunnelUrl: existing.devTunnelUrl, devForwardAll: existing.devForwardAll ?? false } : {}),
    createdAt,
    updatedAt: now,
  };
  const write = existing
    ? integrationEntity.replace({ name }, item, (w) => w.eq('version', existing.version))
    : integrationEntity.create({ name }, item);
  await transact([write], () => conflict('The integration was published by another request; retry'));
  if (existing && scriptBlob && scriptBlob !== existing.scriptBlob) {
    const installations = await installationEntity.query.ofIntegration({ name }).all();
    await emitEvents(installations.map((installation) => newEvent(installation, {
      type: 'installation_setup', status: installation.status,
      previous: { status: installation.status, configuration: installation.configuration },
    })));
  }
  return item;
}
