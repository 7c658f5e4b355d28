import type { OrganizationItem } from '../db/entities/organization.ts';
import type { SiteItem, SiteSectionGroupItem, SiteSectionItem, SiteSpaceItem } from '../db/entities/site.ts';
import type { ShareLinkItem } from '../db/entities/share-link.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import { memberEntity } from '../db/entities/member.ts';
import { collectionEntity } from '../db/entities/collection.ts';
import type { Role } from '../http/schemas.ts';
import { effectiveRole, type LevelHolder } from '../policies/effective-role.ts';
import { policies } from '../policies/index.ts';
import { apiLocation, appLocation } from './urls.ts';
import { presentSpace } from './space.ts';
import { childrenOf, isDefaultSiteSpace, showsSpace, siteSpacesIn, type SiteTree } from '../commands/sites/tree.ts';
import { hashShareSecret, openShareSecret } from '../commands/sites/share-links.ts';
import { readerBaseUrl } from '../reader/site.ts';
import type { SiteOutput } from './schemas/site.ts';
import type { SiteSpaceOutput } from './schemas/site-space.ts';
import type { SiteSectionOutput } from './schemas/site-section.ts';
import type { SiteSectionGroupOutput, SiteStructureOutput } from './schemas/site-section-group.ts';
import type { ShareLinkOutput } from './schemas/share-link.ts';
import type { SiteCustomizationOutput } from './schemas/site-customization.ts';
import type { PublishedSiteOutput } from './schemas/published-site.ts';
import type { RequestScope } from '../http/scope.ts';

/**
 * Base URL of a site's published content: where the reader site serves it,
 * `<PUBLIC_API_URL>/s/<site id>` (functions/reader; docs/decisions.md, "Reader site").
 */
export function siteBaseUrl(site: SiteItem, _org: OrganizationItem): string {
  return readerBaseUrl(site.id);
}


/**
 * Site (spec 2.12). `urls.published` only once published (as the public interface says);
 * `defaultLevel` is `inherit`: sites hold no role of their own (docs/decisions.md, Sites).
 */
export function presentSite(site: SiteItem, org: OrganizationItem, role: Role | null): SiteOutput {
  const base = siteBaseUrl(site, org);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxy ? { proxy: { origin: site.proxy, target: base } } : {}),
    visibility: site.visibility,
    defaultLevel: 'inherit',
    published: site.published,
    siteSpaces: site.siteSpaces,
    createdAt: site.createdAt,
    adaptiveContent: site.adaptiveContent,
    ads: { status: 'pending' as const, submittable: false },
    agentsContext: site.agentsContext,
    features: [],
    permissions: policies.site.permissions({ role }, site),
    urls: {
      location: apiLocation(`/orgs/${site.orgId}/sites/${site.id}`),
      app: appLocation(`/o/${site.orgId}/sites/${site.id}`),
      preview: appLocation(`/o/${site.orgId}/sites/${site.id}/preview`),
      ...(site.published ? { published: base } : {}),
    },
  };
}

/** Everything the presentation of a site's structure needs. */
export interface StructureContext {
  org: OrganizationItem;
  tree: SiteTree;
  /** Presented spaces by id (spaces that no longer exist, or left the organization, are absent: showsSpace). */
  spaces: Map<string, SiteSpaceOutput['space']>;
  /** `?share=<key>` when the caller gave a valid share key of a share-link site, else ''. */
  shareQuery: string;
}

/**
 * The spaces shown by site spaces, each presented with the caller's role on it. One
 * batch for the spaces, one for their ancestor collections.
 */
export async function loadSiteSpaces(request: RequestScope, org: OrganizationItem, spaceIds: string[]) {
  const loader = request.loader;
  const ids = [...new Set(spaceIds)];
  const memberKey = memberEntity.key({ orgId: org.id, userId: request.caller.userId });
  await loader.load([memberKey, ...ids.map((spaceId) => spaceEntity.key({ spaceId }))]);
  const spaces = ids.map((spaceId) => loader.peek(spaceEntity.key({ spaceId })))
    .filter((r): r is Record<string, unknown> => r !== undefined)
    .map((r) => spaceEntity.fromRecord(r) as SpaceItem)
    .filter((s) => showsSpace({ orgId: org.id }, s));
  await loader.load([...new Set(spaces.flatMap((s) => s.ancestors))].map((collectionId) => collectionEntity.key({ collectionId })));
  const memberRecord = loader.peek(memberKey);
  const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
  const out = new Map<string, SiteSpaceOutput['space']>();
  for (const space of spaces) {
    const ancestors = space.ancestors
      .map((collectionId) => loader.peek(collectionEntity.key({ collectionId })))
      .filter((r): r is Record<string, unknown> => r !== undefined)
      .map((r) => collectionEntity.fromRecord(r))
      .reverse();
    const chain: LevelHolder[] = [space, ...ancestors];
    out.set(space.id, presentSpace(space, { role: effectiveRole(member, org, chain), org }));
  }
  return out;
}

/** `?share=<key>` when `shareKey` opens an active share link of a share-link site. */
export function shareQueryFor(tree: SiteTree, shareKey: string | undefined): string {
  if (!shareKey || tree.site.visibility !== 'share-link') return '';
  const hash = hashShareSecret(shareKey);
  return tree.shareLinks.some((l) => l.active && l.secretHash === hash) ? `?share=${encodeURIComponent(shareKey)}` : '';
}

function sectionBase(ctx: StructureContext, section: SiteSectionItem | undefined): string {
  const base = siteBaseUrl(ctx.tree.site, ctx.org);
  if (!section || ctx.tree.site.defaultSiteSection === section.id) return base;
  return `${base}/${section.path}`;
}

/** SiteSpace (spec 2.12); undefined when its space no longer exists. */
export function presentSiteSpace(siteSpace: SiteSpaceItem, ctx: StructureContext): SiteSpaceOutput | undefined {
  const space = ctx.spaces.get(siteSpace.spaceId);
  if (!space) return undefined;
  const section = siteSpace.section ? ctx.tree.sections.find((s) => s.id === siteSpace.section) : undefined;
  const isDefault = isDefaultSiteSpace(ctx.tree, siteSpace);
  const url = `${sectionBase(ctx, section)}${isDefault ? '' : `/${siteSpace.path}`}${ctx.shareQuery}`;
  return {
    object: 'site-space' as const,
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.section ? { section: siteSpace.section } : {}),
    space,
    title: space.title,
    default: isDefault,
    ...(siteSpace.condition !== undefined ? { condition: siteSpace.condition } : {}),
    draft: false,
    hidden: false,
    hasAdvancedCustomizationFeature: false,
    urls: ctx.tree.site.published ? { published: url } : {},
  };
}

export function presentSiteSpaces(items: SiteSpaceItem[], ctx: StructureContext): SiteSpaceOutput[] {
  return items.map((s) => presentSiteSpace(s, ctx)).filter((s): s is SiteSpaceOutput => s !== undefined);
}

/** SiteSection (spec 2.12) with its site spaces. */
export function presentSection(section: SiteSectionItem, ctx: StructureContext): SiteSectionOutput {
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.description !== undefined ? { description: section.description } : {}),
    default: ctx.tree.site.defaultSiteSection === section.id,
    draft: false,
    path: section.path,
    ...(section.condition !== undefined ? { condition: section.condition } : {}),
    ...(section.sectionGroup ? { sectionGroup: section.sectionGroup } : {}),
    siteSpaces: presentSiteSpaces(siteSpacesIn(ctx.tree, section.id), ctx),
    urls: ctx.tree.site.published ? { published: `${sectionBase(ctx, section)}${ctx.shareQuery}` } : {},
    ...(section.icon !== undefined ? { icon: section.icon } : {}),
  };
}


/** SiteSectionGroup (spec 2.12): `children` are its sections and nested groups in order. */
export function presentGroup(group: SiteSectionGroupItem, ctx: StructureContext): SiteSectionGroupOutput {
  const children = childrenOf(ctx.tree, group.id).map((child) => child.kind === 'section' ? presentSection(child.item, ctx) : presentGroup(child.item, ctx));
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.sectionGroup ? { sectionGroup: group.sectionGroup } : {}),
    ...(group.icon !== undefined ? { icon: group.icon } : {}),
    draft: false,
    sections: children.filter((c): c is SiteSectionOutput => c.object === 'site-section'),
    children,
  };
}

/** The site's structure: sections and groups from the root, or the root site spaces. */
export function presentStructure(ctx: StructureContext): SiteStructureOutput {
  if (ctx.tree.sections.length === 0 && ctx.tree.groups.length === 0) {
    return { type: 'siteSpaces', structure: presentSiteSpaces(siteSpacesIn(ctx.tree, undefined), ctx) };
  }
  return {
    type: 'sections',
    structure: childrenOf(ctx.tree, undefined).map((child) => child.kind === 'section' ? presentSection(child.item, ctx) : presentGroup(child.item, ctx)),
  };
}

/** ShareLink (spec 2.12): `urls.published` carries the secret, opened from its sealed form. */
export async function presentShareLink(link: ShareLinkItem, site: SiteItem, org: OrganizationItem): Promise<ShareLinkOutput> {
  const secret = await openShareSecret(link.sealedSecret, link.id);
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: link.createdAt,
    name: link.name,
    active: link.active,
    urls: secret ? { published: `${siteBaseUrl(site, org)}?share=${secret}` } : {},
  };
}

/**
 * Customization settings of spec 2.12 at their defaults, with the fields the public
 * description requires besides; no announcement until one is configured (its message is 2 to
 * 128 characters). `pageActions.items` lists the enabled actions in menu order.
 */
export function defaultCustomization(title: string): SiteCustomizationOutput {
  const both = (light: string, dark: string) => ({ light, dark });
  return {
    title,
    styling: {
      theme: 'clean',
      primaryColor: both('#346DDB', '#346DDB'),
      tint: { color: both('#346DDB', '#346DDB') },
      infoColor: both('#787878', '#787878'),
      successColor: both('#02B341', '#02B341'),
      warningColor: both('#FE9A00', '#FE9A00'),
      dangerColor: both('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: { default: both('default-light', 'default-dark'), openapi: both('default-light', 'default-dark') },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    // Follows the visitor's system (prefers-color-scheme) until the site sets light or dark.
    themes: { default: 'system', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true, items: ['external-ai', 'markdown', 'mcp'] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

/** The published site profile (`published-content-site`). */
export function presentPublishedSite(
  ctx: StructureContext, role: Role | null,
  /** The site's (no id) or a site space's customization as stored (shared/reader/customization.ts); defaults without it. */
  customization: (siteSpaceId?: string) => SiteCustomizationOutput = () => defaultCustomization(ctx.tree.site.title),
  /** Integrations' published-site scripts (shared/reader/site-scripts.ts). */
  scripts: PublishedSiteOutput['scripts'] = [],
): PublishedSiteOutput {
  return {
    object: 'published-content-site',
    site: presentSite(ctx.tree.site, ctx.org, role),
    structure: presentStructure(ctx),
    customizations: {
      site: customization(),
      siteSpaces: Object.fromEntries(ctx.tree.siteSpaces.filter((s) => ctx.spaces.has(s.spaceId)).map((s) => [s.id, customization(s.id)])),
    },
    scripts,
  };
}
