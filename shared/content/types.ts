/**
 * The content model. A revision is an immutable snapshot of a space's content: a manifest
 * (page tree, files, reusable contents, variables) stored as a content-addressed blob, whose
 * pages and files point at further blobs (documents, file bytes) by their sha256 (a document
 * written in a pack by a reference that starts with it: shared/content/blobs.ts).
 */

/** A rich document as stored (spec 2.1 item 6); shared/content/markdown defines its nodes. */
export interface StoredDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: unknown[];
}

export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
}

export interface ContentRef {
  kind: 'file' | 'url' | 'page' | 'openapi';
  [key: string]: unknown;
}

export interface PageCover {
  ref?: ContentRef;
  refDark?: ContentRef;
  yPos?: number;
  height?: number;
}

export interface GitRef {
  oid: string;
  path: string;
}

/** A page of a revision's tree. `document` is the reference of its document blob (blobs.ts). */
export interface ManifestPage {
  id: string;
  type: 'document' | 'link' | 'group';
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  layout?: PageLayout;
  cover?: PageCover;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  variables?: Record<string, string>;
  document?: string;
  /** Target of a link page. */
  href?: string;
  git?: GitRef;
  createdAt: string;
  updatedAt: string;
  pages: ManifestPage[];
}

/** A file of a revision. `blob` is the sha256 of its bytes. */
export interface ManifestFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  blob: string;
  dimensions?: { width: number; height: number };
  git?: GitRef;
}

export interface ManifestReusableContent {
  id: string;
  title: string;
  document: string;
  git?: GitRef;
}

export interface Manifest {
  pages: ManifestPage[];
  files: ManifestFile[];
  reusableContents: ManifestReusableContent[];
  variables: Record<string, string>;
}

export const emptyManifest = (): Manifest => ({ pages: [], files: [], reusableContents: [], variables: {} });
