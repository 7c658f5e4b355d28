import type { SiteTree } from '../commands/sites/tree.ts';
import { SITE_SCOPE, siteCustomizationEntity, type SiteCustomizationItem } from '../db/entities/site-customization.ts';
import { defaultCustomization } from '../presenters/site.ts';
import type { SiteCustomizationOutput } from '../presenters/schemas/site-customization.ts';

/**
 * A site's customization as stored (functions/sites/customization.ts writes it) and as the
 * reader and the API present it: the defaults, then the site's settings, then the site
 * space's overrides, merged field by field (objects merge, arrays and a few whole values
 * such as the favicon replace). One rule for the API's GET, the published profile and the
 * pages the reader renders.
 */

export type PresentedCustomization = SiteCustomizationOutput & { updatedAt?: string };

/** The stored settings of a site: its own and each site space's overrides. */
export interface StoredCustomizations {
  site?: SiteCustomizationItem;
  siteSpaces: Map<string, SiteCustomizationItem>;
}

/** A site's customization records as the site's and each site space's settings. */
export function storedCustomizations(items: readonly SiteCustomizationItem[]): StoredCustomizations {
  return {
    site: items.find((i) => i.scope === SITE_SCOPE),
    siteSpaces: new Map(items.filter((i) => i.scope !== SITE_SCOPE).map((i) => [i.scope, i])),
  };
}

/** One query: every customization record of the site's partition (after a write; a loaded SiteTree already holds them). */
export async function loadCustomizations(siteId: string): Promise<StoredCustomizations> {
  return storedCustomizations(await siteCustomizationEntity.query.inSite({ siteId }).all());
}

/** The customization of a loaded site (its partition's Query read the records), for the site or one site space. */
export function treeCustomization(tree: SiteTree, siteSpaceId?: string): PresentedCustomization {
  return presentCustomization(tree.site.title, storedCustomizations(tree.customizations), siteSpaceId);
}

/** Values replaced whole, never merged: their variants do not mix (an icon and an emoji; two fonts' faces). */
const WHOLE = new Set(['favicon', 'announcement', 'logo', 'to', 'font', 'monospaceFont']);
const isPlain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` on `base`: objects field by field, null removes a field (back to `base`'s value). */
export function mergeSettings(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined || value === null) continue;
    out[key] = isPlain(value) && isPlain(out[key]) && !WHOLE.has(key) ? mergeSettings(out[key] as Record<string, unknown>, value) : value;
  }
  return out;
}

/** Applies a PATCH to stored overrides: null removes the override, objects merge. */
export function patchOverrides(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isPlain(value) && isPlain(out[key]) && !WHOLE.has(key)) out[key] = patchOverrides(out[key] as Record<string, unknown>, value);
    else out[key] = value;
  }
  return out;
}

/** The customization of the site (no site space) or of one site space, as presented. */
export function presentCustomization(siteTitle: string, stored: StoredCustomizations, siteSpaceId?: string): PresentedCustomization {
  const site = stored.site;
  const override = siteSpaceId ? stored.siteSpaces.get(siteSpaceId) : undefined;
  let merged = defaultCustomization(siteTitle) as unknown as Record<string, unknown>;
  if (site) merged = mergeSettings(merged, site.settings);
  if (override) merged = mergeSettings(merged, override.settings);
  const out = structuredClone(merged) as unknown as PresentedCustomization;
  // The public input names the enabled page actions; the flags say the same for older readers.
  const items = out.pageActions.items;
  out.pageActions = { ...out.pageActions, externalAI: items.includes('external-ai'), markdown: items.includes('markdown'), mcp: items.includes('mcp') };
  const updatedAt = [site?.updatedAt, override?.updatedAt].filter((t): t is string => !!t).sort().at(-1);
  if (updatedAt) out.updatedAt = updatedAt;
  else delete out.updatedAt;
  return out;
}
