import { config } from '../../shared/config.ts';
import { evaluateDocument } from '../../shared/content/evaluate.ts';
import { loadPageDocument, pageMarkdown } from '../../shared/presenters/page-document.ts';
import { walkPages, type LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest, StoredDocument } from '../../shared/content/types.ts';
import type { List, Root } from 'mdast';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { x } from 'xastscript';
import { toXml } from 'xast-util-to-xml';
import { exportableDocument } from '../../shared/reader/markdown-export.ts';
import { openAPISpecsOf } from '../../shared/content/openapi-specs.ts';
import { exportedOpenAPIBlocks } from '../../shared/reader/openapi-export.ts';
import type { ReaderIntl } from '../../shared/reader/messages.ts';
import { inlineIncludes } from '../../shared/reader/inline-includes.ts';
import { withIntegrationText } from '../../shared/reader/integration-text.ts';
import { shownDocument } from '../../shared/reader/adaptive.ts';
import { fileHref } from './file-route.ts';
import { readablePages, readerBasePath, spaceContent, type ReaderSite, type ReaderSpace } from '../../shared/reader/site.ts';

/** Absolute URL of a reader path (llms.txt, sitemap.xml and robots.txt carry absolute URLs). */
export const absolute = (path: string) => `${config.apiUrl}${path}`;

/** Every visible site space with its content and readable pages. */
export async function spacesWithPages(site: ReaderSite) {
  return Promise.all(site.spaces.map(async (space) => {
    const content = await spaceContent(space.space);
    return { space, content, pages: readablePages(content.manifest) };
  }));
}

/**
 * A page's document as the exports print it (`.md`, llms-full.txt, `.pdf`): the reusable
 * contents it includes inlined, its integration blocks as their cached renders' text; `key`
 * says what those show (part of the export's ETag).
 */
export async function exportedDocument(document: StoredDocument, manifest: Manifest, space: ReaderSpace): Promise<{ document: StoredDocument; key: string }> {
  return withIntegrationText(await inlineIncludes(document, manifest), { orgId: space.space.orgId, spaceId: space.space.id });
}

/**
 * A page's markdown as Git export prints its file, variables evaluated and reusable contents
 * printed where they are included; links to pages and files are their absolute URLs on the
 * site (these files have no repository around them). Integration blocks print the text of
 * their cached renders (shared/reader/integration-text.ts); OpenAPI blocks print their
 * operation as GitBook's `.md` pages do (shared/reader/openapi-export.ts), from the stored
 * specs and spec files the HTML page reads (nothing fetched).
 */
export async function markdownOf(located: LocatedPage, manifest: Manifest, space: ReaderSpace, visitor: Record<string, unknown>, exported?: StoredDocument, intl?: ReaderIntl): Promise<string> {
  // Adaptive blocks resolved for the visitor: what the page hides is not printed (nor its condition).
  const shown = shownDocument(exported ?? (await exportedDocument(await loadPageDocument(located.page), manifest, space)).document, visitor);
  const evaluated = evaluateDocument(shown, { space: manifest.variables, page: located.page.variables ?? {} });
  const document = await exportedOpenAPIBlocks(evaluated, await openAPISpecsOf(evaluated, space.space.orgId), manifest.files, 'markdown', intl);
  const pagePaths = new Map([...walkPages(manifest.pages)].map(({ page, path }) => [page.id, path]));
  return pageMarkdown(located.page, exportableDocument(document), manifest, {
    page: (id) => (pagePaths.has(id) ? absolute(`${space.basePath}/${pagePaths.get(id)}`) : undefined),
    file: (file) => absolute(fileHref(space, file)),
  });
}

export const markdownUrl = (space: ReaderSpace, path: string) => absolute(`${space.basePath}/${path}.md`);

// Titles and descriptions are text: remark-stringify escapes what would read as markdown.
const llmsPrinter = unified().use(remarkStringify, { bullet: '-', listItemIndent: 'one' }).freeze();

/** llms.txt (llmstxt.org): the site's title, then its pages as links to their markdown. */
export async function llmsTxt(site: ReaderSite): Promise<string> {
  const all = await spacesWithPages(site);
  const tree: Root = { type: 'root', children: [{ type: 'heading', depth: 1, children: [{ type: 'text', value: site.tree.site.title }] }] };
  for (const { space, pages } of all) {
    if (all.length > 1) tree.children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: space.title }] });
    const list: List = { type: 'list', spread: false, children: pages.map(({ page, path }) => ({
      type: 'listItem' as const,
      spread: false,
      children: [{ type: 'paragraph' as const, children: [
        { type: 'link' as const, url: markdownUrl(space, path), children: [{ type: 'text' as const, value: page.title }] },
        ...(page.description ? [{ type: 'text' as const, value: `: ${page.description}` }] : []),
      ] }],
    })) };
    if (list.children.length > 0) tree.children.push(list);
  }
  return llmsPrinter.stringify(tree);
}

/** llms-full.txt: every page's markdown, in reading order. */
export async function llmsFullTxt(site: ReaderSite, visitor: Record<string, unknown>, intl?: ReaderIntl): Promise<string> {
  const all = await spacesWithPages(site);
  const parts: string[] = [];
  for (const { space, content, pages } of all) {
    for (const located of pages) {
      parts.push(`<!-- source: ${absolute(`${space.basePath}/${located.path}`)} -->\n\n${(await markdownOf(located, content.manifest, space, visitor, undefined, intl)).trim()}\n`);
    }
  }
  return `# ${site.tree.site.title}\n\n${parts.join('\n---\n\n')}`;
}

/** sitemap.xml of a public site: its readable, indexable pages. */
export async function sitemapXml(site: ReaderSite): Promise<string> {
  const all = await spacesWithPages(site);
  const urls = all.flatMap(({ space, pages }) => pages
    .filter(({ page }) => !page.noIndex && !page.noRobotsIndex)
    .map(({ page, path }) => x('url', [x('loc', absolute(`${space.basePath}/${path}`)), x('lastmod', page.updatedAt)])));
  // Built as an xast tree and serialized by xast-util-to-xml, which escapes every value.
  return `${toXml(x(null, [
    { type: 'instruction', name: 'xml', value: 'version="1.0" encoding="UTF-8"' },
    '\n',
    x('urlset', { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' }, [...urls.flatMap((url) => ['\n  ', url]), '\n']),
  ]))}\n`;
}

/** robots.txt: public sites allow crawling and name their sitemap; others disallow everything. */
export function robotsTxt(site: { id: string; visibility: string }): string {
  const base = readerBasePath(site.id);
  if (site.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: ${base}/\n\nSitemap: ${absolute(`${base}/sitemap.xml`)}\n`;
}
