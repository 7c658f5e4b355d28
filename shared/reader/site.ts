import { config } from '../config.ts';
import { batchGetRecords, type StoredRecord } from '../db/operations.ts';
import type { Key } from '../db/table.ts';
import { keyString } from '../db/entity.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import type { SiteSectionGroupItem, SiteSectionItem, SiteSpaceItem } from '../db/entities/site.ts';
import { childrenOf, isDefaultSiteSpace, sectionsInOrder, showsSpace, siteSpacesIn, type SiteTree } from '../commands/sites/tree.ts';
import { loadSiteTree } from '../presenters/read/site-tree.ts';
import { loadRevision, type LoadedRevision } from '../content/revisions.ts';
import { walkPages, type LocatedPage } from '../content/tree.ts';
import { emptyManifest, type Manifest } from '../content/types.ts';
import { evaluateCondition, visitorContext } from './conditions.ts';

/** Path of the reader: `/s/<siteId>` (docs/decisions.md, "Reader site"). */
export const readerBasePath = (siteId: string) => `/s/${siteId}`;
/** Absolute base URL of a site in the reader (what `urls.published` says). */
export const readerBaseUrl = (siteId: string) => `${config.apiUrl}${readerBasePath(siteId)}`;

/** A site space the visitor may see, with its space and where it lives. */
export interface ReaderSpace {
  siteSpace: SiteSpaceItem;
  section?: SiteSectionItem;
  space: SpaceItem;
  title: string;
  /** Path prefix of its pages, e.g. `/s/<site>/<section>/<space>` (defaults omitted). */
  basePath: string;
  /** Its URL segments after the site base ([] for the default site space of the default section). */
  segments: string[];
  /** The default site space of its section (or of the root): no path segment of its own. */
  isDefault: boolean;
}

export interface ReaderSite {
  tree: SiteTree;
  basePath: string;
  /** Visible sections in reading order. */
  sections: SiteSectionItem[];
  /** Visible section groups (those holding at least one visible section). */
  groups: SiteSectionGroupItem[];
  /** Visible site spaces, in reading order. */
  spaces: ReaderSpace[];
  defaultSection?: SiteSectionItem;
}

/** The published site, or undefined (unknown, or not published). Visibility is checked by the caller. */
export async function loadPublishedTree(siteId: string): Promise<SiteTree | undefined> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(siteId)) return undefined;
  const tree = await loadSiteTree(siteId);
  return tree?.site.published ? tree : undefined;
}

/** Reads space records by key (the reader may have started the read early: functions/reader/site-prefetch.ts). */
export type SpaceRecordsReader = (keys: Key[]) => Promise<Map<string, StoredRecord>>;

/**
 * The structure a visitor sees: sections and site spaces whose adaptive condition holds
 * for the visitor's claims (no claims: conditional items are hidden), with their spaces.
 */
export async function readerSite(tree: SiteTree, claims: Record<string, unknown>, readSpaces: SpaceRecordsReader = batchGetRecords): Promise<ReaderSite> {
  const context = visitorContext(claims);
  const visible = (item: { condition?: string }) => !item.condition || evaluateCondition(item.condition, context);
  const hasSections = tree.sections.length > 0;
  const sections = sectionsInOrder(tree).filter(visible);
  const defaultSection = sections.find((s) => s.id === tree.site.defaultSiteSection) ?? sections[0];
  const candidates = hasSections ? sections.flatMap((s) => siteSpacesIn(tree, s.id)) : siteSpacesIn(tree, undefined);
  const records = await readSpaces(candidates.map((s) => spaceEntity.key({ spaceId: s.spaceId })));
  const basePath = readerBasePath(tree.site.id);
  const spaces: ReaderSpace[] = [];
  const groupOf = new Map<string | undefined, ReaderSpace[]>();
  for (const siteSpace of candidates) {
    if (!visible(siteSpace)) continue;
    const record = records.get(keyString(spaceEntity.key({ spaceId: siteSpace.spaceId })));
    if (!record) continue;
    const space = spaceEntity.fromRecord(record) as SpaceItem;
    if (!showsSpace(tree.site, space)) continue;
    const section = siteSpace.section ? sections.find((s) => s.id === siteSpace.section) : undefined;
    const entry: ReaderSpace = { siteSpace, section, space, title: space.title, basePath: '', segments: [], isDefault: false };
    spaces.push(entry);
    groupOf.set(siteSpace.section, [...(groupOf.get(siteSpace.section) ?? []), entry]);
  }
  // Paths: the default section and, in each section, the default site space are omitted.
  for (const [sectionId, members] of groupOf) {
    const fallback = members.find((m) => isDefaultSiteSpace(tree, m.siteSpace)) ?? members[0]!;
    for (const m of members) {
      const segments: string[] = [];
      if (sectionId && m.section && m.section.id !== defaultSection?.id) segments.push(m.section.path);
      m.isDefault = m === fallback;
      if (!m.isDefault) segments.push(m.siteSpace.path);
      m.segments = segments;
      m.basePath = [basePath, ...segments].join('/');
    }
  }
  const visibleSections = sections.filter((s) => groupOf.has(s.id));
  const groupIds = new Set<string>();
  for (const s of visibleSections) {
    let parent = s.sectionGroup;
    while (parent && !groupIds.has(parent)) {
      groupIds.add(parent);
      parent = tree.groups.find((g) => g.id === parent)?.sectionGroup;
    }
  }
  return {
    tree, basePath, spaces, defaultSection: visibleSections.find((s) => s.id === defaultSection?.id) ?? visibleSections[0],
    sections: visibleSections,
    groups: tree.groups.filter((g) => groupIds.has(g.id)),
  };
}

/** Which site space a path (segments after `/s/<site>`) is in, and the page path inside it. */
export function resolvePath(site: ReaderSite, segments: string[], options: { siteSpacePaths?: boolean } = {}): { space: ReaderSpace; pagePath: string } | undefined {
  let rest = segments;
  let section = site.defaultSection;
  if (site.sections.length > 0) {
    const named = site.sections.find((s) => s.path === rest[0]);
    if (named) {
      section = named;
      rest = rest.slice(1);
    }
  }
  const inSection = site.spaces.filter((s) => s.siteSpace.section === section?.id);
  const named = options.siteSpacePaths === false ? undefined : inSection.find((s) => !s.isDefault && s.siteSpace.path === rest[0]);
  const space = named ?? inSection.find((s) => s.isDefault);
  if (!space) return undefined;
  if (named) rest = rest.slice(1);
  return { space, pagePath: rest.join('/') };
}

/** The sections and groups of a site as a tree (for the section tabs), in order. */
export type SectionNode = { kind: 'section'; item: SiteSectionItem } | { kind: 'group'; item: SiteSectionGroupItem; children: SectionNode[] };

export function sectionTree(site: ReaderSite, parent?: string): SectionNode[] {
  return childrenOf(site.tree, parent).flatMap((child): SectionNode[] => {
    if (child.kind === 'section') return site.sections.some((s) => s.id === child.item.id) ? [{ kind: 'section' as const, item: child.item }] : [];
    if (!site.groups.some((g) => g.id === child.item.id)) return [];
    return [{ kind: 'group' as const, item: child.item, children: sectionTree(site, child.item.id) }];
  });
}

/** The primary content of a site space's space (immutable revision), or an empty manifest. */
export async function spaceContent(space: SpaceItem): Promise<{ revisionId: string; manifestHash: string; manifest: Manifest }> {
  const loaded: LoadedRevision | undefined = space.revision ? await loadRevision(space.id, space.revision) : undefined;
  if (!loaded) return { revisionId: 'empty', manifestHash: 'empty', manifest: emptyManifest() };
  return { revisionId: loaded.revision.id, manifestHash: loaded.revision.manifest, manifest: loaded.manifest };
}

/** Pages a reader can open (documents), in reading order; hidden ones are left out of navigation. */
export function readablePages(manifest: Manifest): LocatedPage[] {
  return [...walkPages(manifest.pages)].filter((l) => l.page.type === 'document' && !l.page.hidden && !l.ancestors.some((a) => a.hidden));
}
