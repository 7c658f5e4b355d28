import { sha256Hex } from '../../shared/ids.ts';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { createHash } from 'node:crypto';
import { findPageByPath, type LocatedPage } from '../../shared/content/tree.ts';
import { evaluateDocument } from '../../shared/content/evaluate.ts';
import { loadPageDocument } from '../../shared/presenters/page-document.ts';
import { h } from 'hastscript';
import type { ElementContent } from 'hast';
import { renderDocument } from '../../shared/reader/document.ts';
import { ASSET_CACHE, faviconSvg, findAsset } from '../../shared/reader/assets.ts';
import { treeCustomization } from '../../shared/reader/customization.ts';
import { message, messageParts, readerIntl, type ReaderIntl } from '../../shared/reader/messages.ts';
import { breadcrumbs, pageLabel, pagination, tableOfContents } from '../../shared/reader/navigation.ts';
import { errorPage, renderShell, type RenderedPage } from '../../shared/reader/layout.ts';
import { renderedOnce } from './rendered-pages.ts';
import { prefetchPublishedTree, publishedTreeOf, siteReads } from './site-prefetch.ts';
import { BASE_HEADERS } from '../../shared/reader/security-headers.ts';
import { readablePages, readerSite, resolvePath, spaceContent, type ReaderSite } from '../../shared/reader/site.ts';
import { checkAccess, credentialFreeLocation } from './access.ts';
import { visitorContext } from '../../shared/reader/conditions.ts';
import { shownCustomization } from '../../shared/reader/adaptive.ts';
import { visitorClaims } from './visitor-claims.ts';
import { absolute, exportedDocument, llmsFullTxt, llmsTxt, markdownOf, robotsTxt, sitemapXml } from './files.ts';
import { openAPISpecsKey, openAPISpecsOf, withOpenAPISpecs } from '../../shared/content/openapi-specs.ts';
import { mountPublicOpenAPISpecs } from './openapi-spec.ts';
import { exportedOpenAPIBlocks } from '../../shared/reader/openapi-export.ts';
import { fileHref, serveFile } from './file-route.ts';
import { searchResultsHtml, searchResultsJson } from './search.ts';
import { loadIntegrationBlocks } from '../../shared/reader/integration-blocks.ts';
import { inlineIncludes } from '../../shared/reader/inline-includes.ts';
import { linkResolver, pageMeta } from './page-parts.ts';
import { readerQuery, siteIdSchema } from './schemas.ts';
import { mountVisitorKey } from './visitor-key.ts';
import { pagePdf, pdfDisposition } from './pdf.ts';
import { FONT_TYPE, findFontFile } from '../../shared/reader/fonts.ts';
import { readerRateLimit } from '../../shared/http/rate-limit.ts';
import { observeRequests } from '../../shared/http/observe-requests.ts';
import { answerBytes, compressAnswers } from '../../shared/http/compress-answers.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * The reader site (beyond the spec, docs/decisions.md "Reader site"): published sites as
 * HTML at `/s/<siteId>/[<section>/][<site space>/]<page path>`, each page also as
 * markdown (`.md`) and, when the site shows the PDF page action, as PDF (`.pdf`), plus llms.txt, llms-full.txt, sitemap.xml and robots.txt. No bearer
 * auth: visibility is enforced on every request from the site record, share links and
 * visitor tokens. Errors are HTML pages, never content. Every response carries the
 * reader's security headers; HTML pages replace the default policy with their own.
 */
export const app = new Hono();

app.use('*', observeRequests({ group: 'reader' }));
app.use('*', compressAnswers);
app.use('*', async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(BASE_HEADERS)) {
    // A 304's headers replace the cached page's: the default policy would then block the
    // page's own style and script, so a 304 keeps the policy the page was sent with.
    if (c.res.status === 304 && name === 'Content-Security-Policy') continue;
    if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  }
});

/** An HTML page with its own Content-Security-Policy. */
function page(c: Context, rendered: RenderedPage, status: 200 | 401 | 404 | 500 = 200) {
  c.header('Content-Security-Policy', rendered.csp);
  return c.html(rendered.html, status);
}

const PUBLIC_CACHE = 'public, max-age=60, s-maxage=300';
const PRIVATE_CACHE = 'private, no-store';

function fail(c: Context, status: 401 | 404 | 500, title: string, text: string, intl?: ReaderIntl) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  return page(c, errorPage(status, title, text, intl), status);
}

const notFound = (c: Context) => fail(c, 404, 'Page not found', 'There is no published page at this address.');

/**
 * Who may keep a copy of content: browsers for a minute and shared caches for five, unless the
 * page is one visitor's. On a site with adaptive content a public page still depends on the
 * application's visitor cookies being absent (visitor-claims.ts): `Vary: Cookie`, so a browser
 * that has just been given them asks again instead of showing its copy.
 */
function cachePolicy(c: Context, site: ReaderSite, access: { shared: boolean }) {
  c.header('Cache-Control', access.shared ? PRIVATE_CACHE : PUBLIC_CACHE);
  if (!access.shared && site.tree.site.adaptiveContent?.enabled) c.header('Vary', 'Cookie');
}

/**
 * Caching and indexing headers of content. The ETag hashes the site (its structure version and
 * record), its spaces' records (a renamed space changes every page's header) and `parts`;
 * `notModified` when the visitor has this exact rendering; `reusable` when a rendering of
 * that ETag may be served again (rendered-pages.ts): never for share-link and visitor-auth access.
 */
function contentHeaders(c: Context, site: ReaderSite, access: { shared: boolean; noindex: boolean }, parts: string[]): { notModified: boolean; etag: string; reusable: boolean } {
  cachePolicy(c, site, access);
  if (access.noindex) c.header('X-Robots-Tag', 'noindex');
  // Share-link and visitor-auth URLs carry credentials: no referrer at all.
  if (access.shared) c.header('Referrer-Policy', 'no-referrer');
  const { tree } = site;
  const spaces = site.spaces.map((s) => `${s.space.id} ${s.space.updatedAt}`);
  const etag = `"${createHash('sha256').update([tree.site.id, tree.site.version, tree.site.updatedAt, ...spaces, '', ...parts].join('\n')).digest('base64url').slice(0, 27)}"`;
  c.header('ETag', etag);
  const match = c.req.header('if-none-match');
  const notModified = !access.shared && match !== undefined && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  return { notModified, etag, reusable: !access.shared };
}

const text = (c: Context, body: string, type: string) => c.body(body, 200, { 'Content-Type': `${type}; charset=utf-8` });

// Per client address, before anything is read: share-key and visitor-token guesses included.
app.use('*', readerRateLimit(prefetchPublishedTree));
mountVisitorKey(app);
mountPublicOpenAPISpecs(app, notFound);

// The reader's stylesheet and script: content-hashed names, cached for a year, no site data.
app.get('/s/:siteId/~assets/:file', (c) => {
  if (!v.is(siteIdSchema, c.req.param('siteId'))) return notFound(c);
  if (c.req.param('file') === 'favicon.svg') {
    const svg = faviconSvg(c.req.query());
    return svg ? c.body(svg, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': ASSET_CACHE }) : notFound(c);
  }
  const asset = findAsset(c.req.param('file'));
  if (!asset) return notFound(c);
  return c.body(asset.body, 200, { 'Content-Type': asset.type, 'Cache-Control': ASSET_CACHE });
});
// The site's web font (shared/reader/fonts.ts): named by the hash of its bytes, cached for a year.
app.get('/s/:siteId/~assets/fonts/:file', (c) => {
  const bytes = v.is(siteIdSchema, c.req.param('siteId')) ? findFontFile(c.req.param('file')) : undefined;
  if (!bytes) return notFound(c);
  return c.body(new Uint8Array(bytes), 200, { 'Content-Type': FONT_TYPE, 'Cache-Control': ASSET_CACHE });
});
app.get('/s/:siteId/*', read);
app.get('/s/:siteId', read);

/** Languages of the translation list written right to left. */
const RTL_LANGUAGES = new Set(['ar', 'he']);

/**
 * The page's language when its space has one other than the site's locale (`<html lang>`): the
 * article carries it (`lang`, and `dir="rtl"` for Arabic and Hebrew), so screen readers speak
 * it in its language and it reads in its direction; the site's chrome (and `<html lang>`) is in
 * the site's locale (`internationalization.locale`, shared/reader/messages.ts).
 */
function contentLanguage(language: string | undefined, siteLang: string): { lang?: string; dir?: string } {
  if (!language || language.toLowerCase() === siteLang.toLowerCase() || !/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(language)) return {};
  return { lang: language, ...(RTL_LANGUAGES.has(language.split('-')[0]!) ? { dir: 'rtl' } : {}) };
}

/**
 * The site space and page path a URL names. A first segment naming a site space wins
 * (docs/decisions.md, "Reader site"), unless that space has no such page while the section's
 * default space has one at the whole path: a page of the default space whose path begins with
 * a variant's path (a group `api` beside a variant `api`) stays reachable from the page tree,
 * the sitemap and llms.txt that link to it.
 */
async function resolvePage(site: ReaderSite, segments: string[]) {
  const named = resolvePath(site, segments);
  const plain = resolvePath(site, segments, { siteSpacePaths: false });
  if (!named || !plain || plain.space === named.space || named.pagePath === '' || named.pagePath.startsWith('~')) return named;
  if (findPageByPath((await spaceContent(named.space.space)).manifest, named.pagePath)) return named;
  return findPageByPath((await spaceContent(plain.space.space)).manifest, plain.pagePath) ? plain : named;
}

/** `llms.txt`, `llms-full.txt` or `sitemap.xml` when the path is one of the site's own files. */
function siteFileOf(segments: string[]): string | undefined {
  return segments.length === 1 && ['llms.txt', 'llms-full.txt', 'sitemap.xml'].includes(segments[0]!) ? segments[0] : undefined;
}

/** `md` or `pdf` for `<page path>.md` and `<page path>.pdf`: the page in that format. */
function pageFormatOf(segments: string[]): string | undefined {
  const last = segments.at(-1);
  return last === undefined ? undefined : /^.+\.(md|pdf)$/.exec(last)?.[1];
}

/** Whether a reader path can be an HTML page (not a site file, a page's `.md`/`.pdf`, a space file or the search JSON). */
function mayBeHtmlPage(segments: string[]): boolean {
  return !siteFileOf(segments) && !pageFormatOf(segments) && !segments.some((s) => s === '~files' || s === '~search');
}

async function read(c: Context) {
  const siteId = c.req.param('siteId')!;
  if (!v.is(siteIdSchema, siteId)) return notFound(c);
  const treeLoading = publishedTreeOf(c, siteId);
  const base = `/s/${siteId}`;
  const rest = c.req.path.slice(base.length).replace(/^\/+|\/+$/g, '');
  let segments: string[];
  try {
    segments = rest === '' ? [] : rest.split('/').map(decodeURIComponent);
  } catch {
    treeLoading.catch(() => undefined);
    return notFound(c);
  }
  // What the tree will name (its spaces, its organization's site scripts), read beside it for
  // a site this instance saw before: one storage step per page view instead of two.
  const htmlPage = mayBeHtmlPage(segments);
  const reads = siteReads(siteId, { scripts: htmlPage });
  const tree = await treeLoading;
  if (!tree) return notFound(c);

  // Files about the site that reveal no content: answered before the visibility check.
  if (segments.length === 1 && segments[0] === 'robots.txt') {
    c.header('Cache-Control', PUBLIC_CACHE);
    return text(c, robotsTxt(tree.site), 'text/plain');
  }
  if (segments.length === 1 && segments[0] === 'sitemap.xml' && tree.site.visibility !== 'public') return notFound(c);

  const rawQuery = c.req.query();
  const parsed = v.safeParse(readerQuery, rawQuery);
  if (!parsed.success) return notFound(c);
  const query = parsed.output;
  const checked = await checkAccess(c, tree, query);
  if (!checked.ok) {
    // Refused: the site's own settings (no site space is known yet) give the page's language.
    const intl = readerIntl(treeCustomization(tree).internationalization?.locale);
    return fail(c, checked.status, intl.messages.accessRestricted, intl.messages[checked.message], intl);
  }
  const location = credentialFreeLocation(c, query);
  if (location) {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(location, 303);
  }
  // An HTML page shows the integrations' site scripts: read beside the site's spaces (both need
  // only the tree), rather than one round trip after the other. Awaited where the page needs them.
  const scriptsLoading = htmlPage ? reads.scripts(tree.site) : undefined;
  scriptsLoading?.catch(() => undefined);
  // What adaptive content sees (site spaces, sections, `if` blocks); part of every ETag, as
  // unsigned claims (`?visitor.<name>=`) change public pages too. Claims read from cookies
  // make the page that visitor's: private, like share-link and visitor-auth pages.
  const { claims, personal } = await visitorClaims(c, tree.site, checked.signed, rawQuery);
  const access = { ...checked, shared: checked.shared || personal };
  const site = await readerSite(tree, claims, reads.spaceRecords);
  const visitor = visitorContext(claims);
  const claimsKey = JSON.stringify(claims);

  const name = siteFileOf(segments);
  if (name) {
    if (name === 'llms-full.txt') {
      // Its pages print their integration blocks' cached renders, which change within a
      // revision: the ETag is the text's own (built either way; a 304 still saves the transfer).
      const full = await llmsFullTxt(site, visitor, readerIntl(treeCustomization(tree).internationalization?.locale));
      if (contentHeaders(c, site, access, [name, claimsKey, sha256Hex(full)]).notModified) return c.body(null, 304);
      return text(c, full, 'text/plain');
    }
    const revisions = await Promise.all(site.spaces.map(async (s) => (await spaceContent(s.space)).revisionId));
    if (contentHeaders(c, site, access, [name, claimsKey, ...revisions]).notModified) return c.body(null, 304);
    if (name === 'sitemap.xml') return text(c, await sitemapXml(site), 'application/xml');
    return text(c, await llmsTxt(site), 'text/plain');
  }

  // `<page path>.md`: the page as markdown; `<page path>.pdf`: as PDF.
  const format = pageFormatOf(segments);
  if (format) segments[segments.length - 1] = segments.at(-1)!.slice(0, -format.length - 1);
  const asMarkdown = format === 'md';
  const asPdf = format === 'pdf';
  const resolved = await resolvePage(site, segments);
  if (!resolved) return notFound(c);
  const { space, pagePath } = resolved;
  const content = await spaceContent(space.space);
  const { manifest } = content;
  const pages = readablePages(manifest);
  const customization = shownCustomization(treeCustomization(tree, space.siteSpace.id), visitor);
  const intl = readerIntl(customization.internationalization?.locale);
  const resolveLink = linkResolver(manifest, space);

  // `<space>/~files/<blob>/<name>`: a file of the space, at a URL that never changes for these bytes.
  // (Found by its blob: a file named `*.md` is a file here, not a page's markdown.)
  if (pagePath.startsWith('~files/')) return serveFile(c, manifest, pagePath, access);
  // `<space>/~search?q=`: the instant search's JSON.
  if (pagePath === '~search' && !format) {
    cachePolicy(c, site, access);
    c.header('X-Robots-Tag', 'noindex');
    return c.json(await searchResultsJson(space, content, pages, query.q ?? ''));
  }
  // HTML pages load the integrations' published-site scripts; markdown does not.
  const scripts = format ? [] : await (scriptsLoading ?? reads.scripts(tree.site));
  // Part of the page's ETag: installing or publishing an integration changes the page.
  const scriptsKey = scripts.map((s) => `${s.path} ${s.contentSecurityPolicy ?? ''}`).join('\n');
  const renderPage = (title: string, main: ElementContent[], extra: Partial<Parameters<typeof renderShell>[0]> = {}) => renderShell({
    site, space, customization, title, main, noindex: access.noindex, pages: manifest.pages, resolveLink, scripts, ...extra,
  });
  const shell = (title: string, main: ElementContent[], extra: Partial<Parameters<typeof renderShell>[0]> = {}, status: 200 | 404 = 200) => page(c, renderPage(title, main, extra), status);
  if (query.q !== undefined && !format) {
    cachePolicy(c, site, access);
    if (access.noindex) c.header('X-Robots-Tag', 'noindex');
    return shell(message(intl, 'searchTitle', { query: query.q }), await searchResultsHtml(space, content, pages, query.q, intl), { query: query.q, noindex: true });
  }

  let located: LocatedPage | undefined;
  if (pagePath === '') located = pages[0];
  else {
    located = findPageByPath(manifest, pagePath);
    // A group page opens its first readable page.
    if (located && located.page.type === 'group') located = pages.find((p) => p.path.startsWith(`${located!.path}/`));
  }
  if (!located || located.page.type !== 'document') {
    if (pagePath === '' && !format) {
      if (contentHeaders(c, site, access, [content.revisionId, space.siteSpace.id, '', claimsKey, customization.updatedAt ?? '', scriptsKey]).notModified) return c.body(null, 304);
      return shell(space.title, [h('h1', space.title), h('p', intl.messages.emptySpace)]);
    }
    if (format) return notFound(c);
    // A page that is not there (a stale or mistyped link): the 404 in the site's own layout, so the
    // reader can still search, browse the page tree or go back to the site's first page.
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
    return shell(intl.messages.notFoundTitle, [h('article', [
      h('h1', intl.messages.notFoundTitle),
      h('p', messageParts(intl, 'notFoundText', { link: h('a', { href: space.basePath }, space.title) })),
    ])], { noindex: true }, 404);
  }
  // PDFs cost a rendering each: only sites that offer the action answer them.
  if (asPdf && !customization.pageActions.items.includes('pdf')) return notFound(c);
  // A page showing stored OpenAPI specs changes when they do (shared/content/openapi-specs.ts).
  const pageDocument = await loadPageDocument(located.page);
  const specs = await openAPISpecsOf(pageDocument, space.space.orgId);
  // Integration blocks as their integrations draw them (cached renders, or asked within a deadline):
  // what they show is part of the ETag, so a new render is a new page. Those of the reusable contents
  // the page includes too: the page's space owns them (docs/decisions.md).
  const integrationBlocks = format ? undefined : await loadIntegrationBlocks(await inlineIncludes(pageDocument, manifest), { siteId: tree.site.id, spaceId: space.space.id, orgId: space.space.orgId });
  // `.md` and `.pdf` print the reusable contents the page includes where it includes them, and the
  // text of their integration blocks' cached renders (never running an integration); part of their ETag.
  const exportText = format ? await exportedDocument(pageDocument, manifest, space) : undefined;
  const validators = contentHeaders(c, site, access, [content.revisionId, space.siteSpace.id, located.path, format ?? 'html', claimsKey, customization.updatedAt ?? '', scriptsKey, openAPISpecsKey(specs), integrationBlocks?.etagKey ?? '', exportText?.key ?? '']);
  if (validators.notModified) return c.body(null, 304);

  // A page rendered once for this ETag is served again, with its gzip (rendered-pages.ts).
  const once = (render: () => Promise<string | RenderedPage>) => renderedOnce(validators, render);
  if (asMarkdown) return answerBytes(c, await once(() => markdownOf(located, manifest, space, visitor, exportText!.document, intl)), 'text/markdown; charset=utf-8');

  const evaluated = () => evaluateDocument(exportText?.document ?? pageDocument, { space: manifest.variables, page: located.page.variables ?? {} });
  if (asPdf) {
    // OpenAPI blocks as a readable operation section (shared/reader/openapi-export.ts), from what the HTML page reads.
    const document = await exportedOpenAPIBlocks(evaluated(), specs, manifest.files, 'readable', intl);
    const pdf = await pagePdf({ located, manifest, document, siteTitle: customization.title || tree.site.title, visitor });
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': pdfDisposition(located) });
  }
  const article = await once(() => renderArticle(located));
  c.header('Content-Security-Policy', article.csp);
  return answerBytes(c, article, 'text/html; charset=UTF-8');

  /** The page's HTML: its document rendered in the site's layout. */
  async function renderArticle(located: LocatedPage): Promise<RenderedPage> {
    // Swagger blocks naming a stored OpenAPI spec, or a spec file of the space, render from it (shared/content/openapi-specs.ts).
    const document = await withOpenAPISpecs(evaluated(), specs, manifest.files);
    const body = await renderDocument(document, {
      manifest, current: located, intl, pageHref: (path) => `${space.basePath}/${path}`, fileHref: (file) => fileHref(space, file), integrationBlocks, visitor,
    });
    const { page: current } = located;
    const markdownHref = `${space.basePath}/${located.path}.md`;
    const pdfHref = `${space.basePath}/${located.path}.pdf`;
    const main = [
      ...breadcrumbs(located, space, intl, { withSpace: site.spaces.length > 1 }),
      h('article', contentLanguage(space.space.language, intl.lang), [
        h('h1', pageLabel(current)),
        ...(current.description && current.layout?.description !== false ? [h('p.description', current.description)] : []),
        ...body.nodes,
      ]),
      ...pageMeta({ customization, intl, space, located, markdownHref, pdfHref }),
      ...(customization.pagination.enabled && current.layout?.pagination !== false ? pagination(pages, located, space.basePath, intl) : []),
    ];
    return renderPage(current.title, main, {
      currentPath: located.path,
      description: current.description,
      markdownHref,
      canonicalUrl: absolute(`${space.basePath}/${located.path}`),
      toc: current.layout?.outline === false ? [] : tableOfContents(body.nodes, intl),
      codeCss: body.codeCss,
      math: body.math,
      frameOrigins: body.frameOrigins,
      noindex: access.noindex || current.noIndex === true || current.noRobotsIndex === true,
    });
  }
}

app.notFound((c) => notFound(c));
app.onError((error, c) => {
  logger.error('reader error', { path: c.req.path, error: error as Error });
  return fail(c, 500, 'Something went wrong', 'The page could not be rendered. Try again in a moment.');
});
