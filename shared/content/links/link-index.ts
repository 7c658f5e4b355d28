// The markdown modules are imported one by one: the parser (remark) stays out of the bundle.
import { documentLinks, type DocumentLink } from '../markdown/links.ts';
import { documentSections } from '../markdown/sections.ts';
import type { JSONDocument } from '../markdown/types.ts';
import { getJsonBlob } from '../blobs.ts';
import { walkPages } from '../tree.ts';
import type { Manifest } from '../types.ts';
import { DerivedIndexStore } from '../search/derived-index.ts';
import { mapLimit } from '../../map-limit.ts';

/**
 * What link checking needs from a revision's documents, extracted once per manifest: for
 * each page with a document, the links it holds (documentLinks: target as written or
 * resolved to an id, kind, block key) and the anchors its headings define (the section ids
 * of documentSections). Checking a link against the revision then needs only the manifest.
 */
export interface PageLinks {
  page: string;
  anchors: string[];
  links: DocumentLink[];
}

export interface LinkIndex {
  pages: PageLinks[];
}

const BUILD_CONCURRENCY = 16;

async function buildLinkIndex(manifest: Manifest): Promise<LinkIndex> {
  const pages = [...walkPages(manifest.pages)].map((l) => l.page).filter((p) => p.document);
  return {
    pages: await mapLimit(pages, BUILD_CONCURRENCY, async (page) => {
      const document = await getJsonBlob<JSONDocument>(page.document!);
      return {
        page: page.id,
        anchors: [...new Set(documentSections(document).map((s) => s.id).filter(Boolean))],
        links: documentLinks(document),
      };
    }),
  };
}

/** Link indexes by manifest hash: S3 `indexes/links/v1/<manifestHash>.json.gz`, 16 MB kept in memory. */
export const linkIndexes = new DerivedIndexStore<LinkIndex>({
  kind: 'links',
  version: 1,
  maxCachedBytes: 16 * 1024 * 1024,
  build: buildLinkIndex,
  decode: (stored) => stored as LinkIndex,
});
