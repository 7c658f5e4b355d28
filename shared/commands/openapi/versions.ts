import { nowMs } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { mapLimit } from '../../map-limit.ts';
import { run } from '../../db/writes.ts';
import type { OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import { openAPISpecVersionEntity, type OpenAPISpecVersionItem } from '../../db/entities/openapi-spec-version.ts';

/** Versions kept per spec (docs/decisions.md): older ones are deleted as new ones are processed (an object so tests can lower it). */
export const openAPIVersionRetention = { versions: 100 };

/**
 * A version id that sorts by creation time: 9 base-36 digits of milliseconds (enough until
 * the year 5188), then 11 random characters — 20 characters, as the service's other ids.
 */
export function newOpenAPIVersionId(): string {
  return `${nowMs().toString(36).padStart(9, '0')}${randomId(11)}`;
}

/**
 * A version of the spec, or undefined. A spec processed before versions were recorded has no
 * record for its lastVersion: that one is still answered from the spec, without a raw source.
 */
export async function findOpenAPIVersion(spec: OpenAPISpecItem, versionId: string): Promise<OpenAPISpecVersionItem | undefined> {
  // Consistent: the spec may have just moved to this version, written in the same transaction.
  const version = await openAPISpecVersionEntity.get({ orgId: spec.orgId, slug: spec.slug, versionId }, { consistent: true });
  if (version?.specId === spec.id) return version;
  if (versionId !== spec.lastVersion || !spec.lastVersionBlob || version) return undefined;
  return legacyVersion(spec);
}

function legacyVersion(spec: OpenAPISpecItem): OpenAPISpecVersionItem {
  return {
    id: spec.lastVersion!, orgId: spec.orgId, slug: spec.slug, specId: spec.id,
    createdAt: spec.lastProcessedAt ?? spec.updatedAt, documentBlob: spec.lastVersionBlob!, sourceBlob: '', format: 'json',
    ...(spec.sourceURL !== undefined ? { sourceURL: spec.sourceURL } : {}),
  };
}

/**
 * One page of the spec's versions, newest first. Versions an earlier spec of the slug left
 * (a deletion stopped halfway; the next processing trims them) are left out after the read,
 * not by a query filter, which would end every full page with a `next`, even the last.
 */
export async function listOpenAPIVersions(spec: OpenAPISpecItem, page: { limit: number; cursor?: string }) {
  const result = await openAPISpecVersionEntity.query.ofSpec({ orgId: spec.orgId, slug: spec.slug }, { forward: false }).page(page);
  return { ...result, items: result.items.filter((v) => v.specId === spec.id) };
}

/**
 * Deletes the versions under a slug beyond the newest retained ones of `specId`, and any an
 * earlier spec of the same slug left. Reads at most the retained versions plus the few
 * written since the last trim.
 */
export function trimOpenAPIVersions(orgId: string, slug: string, specId: string): Promise<number> {
  return deleteVersions(orgId, slug, (all) => {
    const kept = new Set(all.filter((v) => v.specId === specId).slice(0, openAPIVersionRetention.versions));
    return all.filter((v) => !kept.has(v));
  });
}

/** Deletes the versions of a deleted spec (at most the retained ones: a bounded delete). */
export function deleteOpenAPIVersionsOf(orgId: string, slug: string, specId: string): Promise<number> {
  return deleteVersions(orgId, slug, (all) => all.filter((v) => v.specId === specId));
}

async function deleteVersions(orgId: string, slug: string, pick: (newestFirst: OpenAPISpecVersionItem[]) => OpenAPISpecVersionItem[]): Promise<number> {
  const doomed = pick(await openAPISpecVersionEntity.query.ofSpec({ orgId, slug }, { forward: false }).all());
  await mapLimit(doomed, 8, (v) => run(openAPISpecVersionEntity.delete({ orgId, slug, versionId: v.id })));
  return doomed.length;
}
