import type { RevisionItem } from '../db/entities/revision.ts';
import type { SpaceItem } from '../db/entities/space.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Manifest, ManifestFile, ManifestPage } from '../content/types.ts';
import { fileDownloadUrl } from '../content/file-urls.ts';
import { appLocation } from './urls.ts';

/** What the caller asked for: `metadata=false` omits git metadata (spec 4.3). */
export interface ContentOptions {
  metadata: boolean;
}

export interface ContentContext {
  space: SpaceItem;
  org: OrganizationItem;
}

const defaultLayout = {
  width: 'default', cover: false, coverSize: 'hero', title: true, description: true,
  tableOfContents: true, outline: true, pagination: true, metadata: true,
};

/** Page (spec 2.8) without its document: every field, nested pages, path from the slugs. */
export function presentPage(page: ManifestPage, parentPath: string, context: ContentContext, options: ContentOptions): Record<string, unknown> {
  const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
  return {
    object: 'page',
    id: page.id,
    title: page.title,
    emoji: page.emoji ?? '',
    icon: page.icon ?? '',
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    type: page.type,
    urls: { app: appLocation(`/s/${context.space.id}/${path}`) },
    slug: page.slug,
    path,
    description: page.description ?? '',
    ...(page.href ? { href: page.href } : {}),
    pages: page.pages.map((child) => presentPage(child, path, context, options)),
    ...(options.metadata && page.git ? { git: page.git } : {}),
    layout: { ...defaultLayout, ...page.layout },
    ...(page.cover ? { cover: page.cover } : {}),
    variables: page.variables ?? {},
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
  };
}

/** File (spec 2.8) with a working presigned `downloadURL`. */
export async function presentFile(file: ManifestFile, options: ContentOptions) {
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

/** Revision (spec 2.8): the whole tree, files, reusable contents and variables. */
export async function presentRevision(revision: RevisionItem, manifest: Manifest, context: ContentContext, options: ContentOptions) {
  const published = `https://${context.org.hostname}/${context.space.id}`;
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    pages: manifest.pages.map((page) => presentPage(page, '', context, options)),
    files: await Promise.all(manifest.files.map((file) => presentFile(file, options))),
    reusableContents: manifest.reusableContents.map((r) => ({ id: r.id, title: r.title, ...(options.metadata && r.git ? { git: r.git } : {}) })),
    variables: manifest.variables,
    createdAt: revision.createdAt,
    ...(options.metadata && revision.git ? { git: revision.git } : {}),
    urls: {
      app: appLocation(`/s/${context.space.id}/~/revisions/${revision.id}`),
      published,
      ...(context.space.visibility === 'public' || context.space.visibility === 'unlisted' ? { public: published } : {}),
    },
    type: revision.type === 'initial' ? 'edits' : revision.type,
  };
}
