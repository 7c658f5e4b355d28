import * as v from 'valibot';
import type { RevisionItem } from '../db/entities/revision.ts';
import type { SpaceItem } from '../db/entities/space.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Manifest, ManifestFile, ManifestPage } from '../content/types.ts';
import { fileDownloadUrl } from '../content/file-urls.ts';
import { appLocation } from './urls.ts';
import type { ChangeRequestOutput } from './schemas/change-request.ts';
import {
  pageLayoutSchema, type PageLayoutOutput, type RevisionFileOutput, type RevisionOutput, type RevisionPageOutput,
} from './schemas/revision.ts';

/** What the caller asked for: `metadata=false` omits git metadata (spec 4.3). */
export interface ContentOptions {
  metadata: boolean;
}

export interface ContentContext {
  space: SpaceItem;
  org: OrganizationItem;
}

const defaultLayout: PageLayoutOutput = {
  width: 'default', cover: false, coverSize: 'hero', coverMask: 'none', title: true, description: true,
  tableOfContents: true, outline: true, pagination: true, metadata: true, tags: true, actions: true, anchors: true,
};

/**
 * Every layout option: the stored value where it is a valid one (layouts also come from
 * markdown frontmatter, which may hold anything), the default otherwise.
 */
function presentLayout(stored: ManifestPage['layout']): PageLayoutOutput {
  const layout = { ...defaultLayout };
  const entries = pageLayoutSchema.entries;
  for (const key of Object.keys(entries) as (keyof PageLayoutOutput)[]) {
    const value = (stored as Record<string, unknown> | undefined)?.[key];
    if (value !== undefined && v.is(entries[key], value)) (layout as Record<string, unknown>)[key] = value;
  }
  return layout;
}

/** The public interface's deprecated `kind` of each page type. */
const pageKinds = { document: 'sheet', group: 'group', link: 'link' } as const;

/** Page (spec 2.8) without its document: every field, nested pages, path from the slugs. */
export function presentPage(page: ManifestPage, parentPath: string, context: ContentContext, options: ContentOptions): RevisionPageOutput {
  const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
  return {
    object: 'page',
    id: page.id,
    title: page.title,
    emoji: page.emoji ?? '',
    icon: page.icon ?? '',
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    kind: pageKinds[page.type],
    type: page.type,
    urls: { app: appLocation(`/s/${context.space.id}/${path}`) },
    slug: page.slug,
    path,
    description: page.description ?? '',
    ...(page.href ? { href: page.href, target: { kind: 'url', url: page.href } } : {}),
    pages: page.pages.map((child) => presentPage(child, path, context, options)),
    ...(options.metadata && page.git ? { git: page.git } : {}),
    layout: presentLayout(page.layout),
    ...(page.cover ? { cover: { yPos: 0, ...page.cover } } : {}),
    variables: page.variables ?? {},
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
    tags: [],
  };
}

/** File (spec 2.8) with a working presigned `downloadURL`. */
export async function presentFile(file: ManifestFile, options: ContentOptions): Promise<RevisionFileOutput> {
  return {
    object: 'file' as const,
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: await fileDownloadUrl(file),
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    ...(options.metadata && file.git ? { git: file.git } : {}),
  };
}

/**
 * Revision (spec 2.8): the whole tree, files, reusable contents and variables. A merge
 * revision names the change request it merged (`mergedFrom`, loaded by the caller); the
 * first revision of a space is an `edits` one.
 */
export async function presentRevision(
  revision: RevisionItem,
  manifest: Manifest,
  context: ContentContext & { mergedFrom?: ChangeRequestOutput },
  options: ContentOptions,
): Promise<RevisionOutput> {
  const published = `https://${context.org.hostname}/${context.space.id}`;
  const base = {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    pages: manifest.pages.map((page) => presentPage(page, '', context, options)),
    files: await Promise.all(manifest.files.map((file) => presentFile(file, options))),
    reusableContents: manifest.reusableContents.map((r) => ({ id: r.id, title: r.title, ...(options.metadata && r.git ? { git: r.git } : {}) })),
    tags: [],
    variables: manifest.variables,
    createdAt: revision.createdAt,
    ...(options.metadata && revision.git ? { git: revision.git } : {}),
    urls: {
      app: appLocation(`/s/${context.space.id}/~/revisions/${revision.id}`),
      published,
      ...(context.space.visibility === 'public' || context.space.visibility === 'unlisted' ? { public: published } : {}),
    },
  };
  if (revision.type === 'merge' && context.mergedFrom) return { ...base, type: 'merge', mergedFrom: context.mergedFrom };
  // A merge whose change request is unknown (merged before revisions recorded it) shows as edits.
  const type = revision.type === 'update' || revision.type === 'rollback' ? revision.type : 'edits';
  return { ...base, type };
}
