import type { ElementContent, Root } from 'hast';
import { h } from 'hastscript';
import type { ManifestPage } from '../content/types.ts';
import { defaultCustomization } from '../presenters/site.ts';
import { assetHref, faviconHref } from './assets.ts';
import { THEME_BOOT_JS } from './assets/script.ts';
import { sanitizedPageTree } from './sanitized-page-tree.ts';
import { safeHref, sanitizeNodes, treeHtml } from './sanitize.ts';
import { pagePolicy } from './security-headers.ts';
import { sectionTree, type ReaderSite, type ReaderSpace } from './site.ts';
import { initialTheme, themeStyle } from './theme.ts';
import { monospaceFont, siteFont } from './fonts.ts';
import { fillMathSlots } from './math.ts';
import { focusableScrollRegions } from './scroll-regions.ts';
import { clientMessages, ENGLISH, message, readerIntl, type ReaderIntl } from './messages.ts';

/**
 * The reader's page shell, built as one hast tree (every value escaped by hast-util-to-html).
 * Everything that holds site data (navigation, header and footer links, the page itself)
 * goes through the sanitizer; only the menu link, the search form and the theme toggle are
 * the shell's own. Style and script are static files under the site (shared/reader/assets.ts);
 * the only inline code is the site's theme style (with its font's `@font-face` rules), the
 * page's code-token style and the theme boot script, each allowed by its hash. Math is put
 * in its placeholders after the page is sanitized (shared/reader/math.ts), and regions that
 * scroll sideways made focusable then too (shared/reader/scroll-regions.ts). The shell's own
 * words are the site's locale's (shared/reader/messages.ts), `<html lang>` too; those the
 * script shows are on `<body data-messages>`.
 */

export type Customization = ReturnType<typeof defaultCustomization>;

export interface ShellInput {
  site: ReaderSite;
  space?: ReaderSpace;
  customization: Customization;
  /** Title of the page (the document title is `<page> · <site>`). */
  title: string;
  description?: string;
  /** Page tree of the current site space and the path of the open page. */
  pages?: ManifestPage[];
  currentPath?: string;
  /** The page body (may hold raw HTML of the document: it is sanitized here). */
  main: ElementContent[];
  /** "On this page" (sanitized here). */
  toc?: ElementContent[];
  /** CSS of the highlighted code's token classes. */
  codeCss?: string;
  /** MathML of the page's formulas by placeholder id (sanitized on their own, shared/reader/math.ts). */
  math?: Map<string, ElementContent>;
  /** Origins of the integration webframes in the page body (shared/reader/document.ts): its frame-src. */
  frameOrigins?: string[];
  /** Where a customization link (content ref) points; by default only URLs. */
  resolveLink?: LinkResolver;
  noindex: boolean;
  query?: string;
  /** Link to this page as markdown. */
  markdownHref?: string;
  /** The page's absolute URL (its `canonical` link and `og:url`), for pages that have one. */
  canonicalUrl?: string;
  /** Integrations' published-site scripts (shared/reader/site-scripts.ts): loaded async, their policies merged into the CSP. */
  scripts?: { path: string; contentSecurityPolicy?: string }[];
}

/** A rendered HTML page with its Content-Security-Policy (hashes of its inline script and style). */
export interface RenderedPage {
  html: string;
  csp: string;
}

type Link = { title: string; to?: unknown };
export type LinkResolver = (to: unknown) => string;

function sectionNav(input: ShellInput, intl: ReaderIntl): ElementContent[] {
  const { site, space } = input;
  if (site.sections.length === 0) return [];
  const sectionHref = (id: string) => site.spaces.find((s) => s.siteSpace.section === id && s.isDefault)?.basePath ?? site.basePath;
  const render = (nodes: ReturnType<typeof sectionTree>): ElementContent[] => nodes.map((node) => {
    if (node.kind === 'group') return h('div.group', [h('span', node.item.title), ...render(node.children)]);
    const here = space?.section?.id === node.item.id ? 'true' : undefined;
    return h('a', { href: sectionHref(node.item.id), ariaCurrent: here }, `${node.item.icon ? `${node.item.icon} ` : ''}${node.item.title}`);
  });
  return [h('nav.sections', { ariaLabel: intl.messages.navSections }, render(sectionTree(site)))];
}

function spaceSwitcher(input: ShellInput, intl: ReaderIntl): ElementContent[] {
  const { site, space } = input;
  if (!space) return [];
  const siblings = site.spaces.filter((s) => s.siteSpace.section === space.siteSpace.section);
  if (siblings.length < 2) return [];
  return [h('nav.spaces', { ariaLabel: intl.messages.navSpaces }, h('ul', siblings.map((s) => h('li', h('a', { href: s.basePath, ariaCurrent: s === space ? 'true' : undefined }, s.title)))))];
}

/** Serializes a page: doctype, then the tree. */
function documentHtml(head: ElementContent[], body: ElementContent[], lang: string, theme?: string, messages?: string): string {
  const tree: Root = { type: 'root', children: [{ type: 'doctype' }, h('html', { lang, dataTheme: theme }, [h('head', head), h('body', { dataMessages: messages }, body)])] };
  return treeHtml(tree);
}

/** The favicon: the site's icon, else its emoji or initial drawn by the reader (no request to a missing /favicon.ico). */
function favicon(c: Customization, siteTitle: string, siteBase: string): string {
  const icon = safeHref((c.favicon as { icon?: { light?: string } }).icon?.light);
  if (icon) return icon;
  const emoji = (c.favicon as { emoji?: string }).emoji;
  const glyph = typeof emoji === 'string' && emoji ? emoji : (/[A-Za-z0-9]/.exec(siteTitle)?.[0] ?? 'D').toUpperCase();
  const hex = /^#([0-9A-Fa-f]{3,8})$/.exec(String(c.styling.primaryColor.light))?.[1] ?? '346DDB';
  return faviconHref(siteBase, hex, glyph);
}

function brand(input: ShellInput, siteTitle: string): ElementContent {
  const logo = (input.customization.header as { logo?: { light?: string; dark?: string } }).logo;
  const images = logo?.light
    ? [h('img.logo-light', { src: logo.light, alt: '' }), ...(logo.dark && logo.dark !== logo.light ? [h('img.logo-dark', { src: logo.dark, alt: '' })] : [])]
    : [];
  return h('a.brand', { href: input.site.basePath }, [...images, h('span', siteTitle)]);
}

function footer(c: Customization, resolve: LinkResolver, intl: ReaderIntl): ElementContent[] {
  const groups = (c.footer.groups as { title: string; links: Link[] }[]).map((g) =>
    h('div', [h('strong', g.title), h('ul', g.links.map((l) => h('li', h('a', { href: resolve(l.to) }, l.title))))]));
  const copyright = (c.footer as { copyright?: string }).copyright;
  return [
    ...groups,
    ...(copyright || c.trademark.enabled ? [h('p.copyright', [copyright ?? '', ...(copyright && c.trademark.enabled ? [' · '] : []), ...(c.trademark.enabled ? [message(intl, 'publishedWith', { name: 'docs-service' })] : [])])] : []),
  ];
}

function announcement(c: Customization, resolve: LinkResolver): ElementContent[] {
  const a = c.announcement;
  if (!a?.enabled) return [];
  const link = a.link ? [' ', h('a', { href: resolve(a.link.to) }, a.link.title)] : [];
  return [h('div', { className: ['announcement', `announcement-${a.style}`], role: 'status' }, [a.message, ...link])];
}

/** `externalLinks.target: blank`: links to other sites (absolute http(s) URLs) open in a new tab, telling it nothing of the page. */
function externalLinks(nodes: ElementContent[], target: string): ElementContent[] {
  if (target !== 'blank') return nodes;
  const visit = (node: ElementContent) => {
    if (node.type !== 'element') return;
    if (node.tagName === 'a' && /^https?:\/\//i.test(String(node.properties.href ?? ''))) {
      node.properties.target = '_blank';
      node.properties.rel = ['noopener', 'noreferrer'];
    }
    node.children.forEach((child) => visit(child as ElementContent));
  };
  nodes.forEach(visit);
  return nodes;
}

/**
 * What a link preview shows (chat apps, social networks, search results): Open Graph and
 * Twitter card tags with the page's title and description, the site's social preview image
 * when it sets one, and the page's canonical URL (one URL for a page also served at the site root).
 */
function socialMeta(input: ShellInput, documentTitle: string, siteTitle: string): ElementContent[] {
  const image = safeHref((input.customization as { socialPreview?: { url?: string } }).socialPreview?.url);
  const absoluteImage = image && /^https?:\/\//i.test(image) ? image : undefined;
  const property = (name: string, content: string) => h('meta', { property: name, content });
  return [
    ...(input.canonicalUrl ? [h('link', { rel: ['canonical'], href: input.canonicalUrl })] : []),
    property('og:type', 'website'),
    property('og:site_name', siteTitle),
    property('og:title', documentTitle),
    ...(input.description ? [property('og:description', input.description)] : []),
    ...(input.canonicalUrl ? [property('og:url', input.canonicalUrl)] : []),
    ...(absoluteImage ? [property('og:image', absoluteImage)] : []),
    h('meta', { name: 'twitter:card', content: absoluteImage ? 'summary_large_image' : 'summary' }),
  ];
}

export function renderShell(input: ShellInput): RenderedPage {
  const c = input.customization;
  const intl = readerIntl(c.internationalization?.locale);
  const words = intl.messages;
  const resolve: LinkResolver = input.resolveLink ?? ((to) => (typeof to === 'string' ? to : (to as { url?: string } | undefined)?.url ?? '#'));
  const siteTitle = c.title || input.site.tree.site.title;
  const headerLinks = (c.header.links as Link[]).map((l) => h('a', { href: resolve(l.to) }, l.title));
  const searchBase = input.space?.basePath ?? input.site.basePath;
  const documentTitle = input.title && input.title !== siteTitle ? `${input.title} · ${siteTitle}` : siteTitle;
  const toggleable = c.themes.toggeable;
  const font = siteFont(c.styling.font, input.site.basePath);
  const mono = monospaceFont(c.styling.monospaceFont, input.site.basePath);
  // One inline style: the site's theme and fonts, and the page's code token colours.
  const inlineStyles = [`${themeStyle(c, font, mono)}${input.codeCss ?? ''}`];
  const inlineScripts = toggleable ? [THEME_BOOT_JS] : [];
  const head = [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', documentTitle),
    ...(input.description ? [h('meta', { name: 'description', content: input.description })] : []),
    ...(input.noindex ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
    ...socialMeta(input, documentTitle, siteTitle),
    ...(input.markdownHref ? [h('link', { rel: ['alternate'], type: 'text/markdown', href: input.markdownHref })] : []),
    h('link', { rel: ['icon'], href: favicon(c, siteTitle, input.site.basePath) }),
    h('link', { rel: ['stylesheet'], href: assetHref(input.site.basePath, 'css') }),
    // The font's files are fetched at once rather than after the first layout: no late swap.
    ...(font?.urls ?? []).map((href) => h('link', { rel: ['preload'], href, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' })),
    ...inlineStyles.map((css) => h('style', css)),
    ...inlineScripts.map((js) => h('script', js)),
    h('script', { src: assetHref(input.site.basePath, 'js'), defer: true }),
    ...(input.scripts ?? []).map((script) => h('script', { src: script.path, async: true })),
  ];
  // On phones the header has no room for its links: the drawer (or, without JavaScript, the page tree after the page) lists them.
  const drawerLinks = headerLinks.length > 0 ? [h('nav.links', { ariaLabel: words.navHeader }, (c.header.links as Link[]).map((l) => h('a', { href: resolve(l.to) }, l.title)))] : [];
  const sidebar = input.space
    ? [h('aside.sidebar', { id: 'sidebar' }, [
      ...sanitizeNodes([...drawerLinks, ...spaceSwitcher(input, intl)]),
      ...sanitizedPageTree(input.pages ?? [], input.space.basePath, input.currentPath, intl, words.navPages),
    ])]
    : [];
  const toc = input.toc && input.toc.length > 0 ? [h('aside.toc', sanitizeNodes(input.toc))] : [];
  const search = h('form.search', { role: 'search', method: 'get', action: searchBase, dataSearch: `${searchBase}/~search` }, [
    h('input', { type: 'search', name: 'q', placeholder: `${words.searchPlaceholder}  /`, ariaLabel: words.search, value: input.query ?? '', autoComplete: 'off' }),
    h('div.search-panel', { hidden: true, role: 'region', ariaLabel: words.searchResults, ariaLive: 'polite' }),
  ]);
  const body = [
    h('a.skip-link', { href: '#content' }, words.skipToContent),
    ...sanitizeNodes(announcement(c, resolve)),
    h('header.top', [
      ...(input.space ? [h('a.menu-link.icon-button', { href: '#sidebar', ariaControls: 'sidebar' }, `☰ ${words.menu}`)] : []),
      ...sanitizeNodes([brand(input, siteTitle), ...(headerLinks.length > 0 ? [h('nav.links', { ariaLabel: words.navHeader }, headerLinks)] : [])]),
      search,
      ...(toggleable ? [h('button.icon-button', { type: 'button', dataThemeToggle: true, hidden: true, ariaLabel: words.switchTheme }, '◐')] : []),
    ]),
    ...sanitizeNodes(sectionNav(input, intl)),
    h('div.layout', [...sidebar, h('main', { id: 'content' }, fillMathSlots(focusableScrollRegions(externalLinks(sanitizeNodes(input.main), c.externalLinks.target)), input.math)), ...toc]),
    h('footer.bottom', sanitizeNodes(footer(c, resolve, intl))),
  ];
  return {
    html: documentHtml(head, body, intl.lang, initialTheme(c), clientMessages(intl)),
    csp: pagePolicy({
      scripts: inlineScripts, styles: inlineStyles, self: true, fontOrigins: [...(font?.origins ?? []), ...(mono?.origins ?? [])],
      integrationPolicies: [
        ...(input.scripts ?? []).flatMap((script) => script.contentSecurityPolicy ?? []),
        ...(input.frameOrigins?.length ? [`frame-src ${input.frameOrigins.join(' ')}`] : []),
      ],
    }),
  };
}


const ERROR_STYLE = 'body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}';

/** A plain error page (404, 401) in the reader's look, with no site data (in the site's language when the site is known). */
export function errorPage(status: number, title: string, text: string, intl: ReaderIntl = ENGLISH): RenderedPage {
  const head = [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('meta', { name: 'robots', content: 'noindex' }),
    h('title', title),
    h('style', ERROR_STYLE),
  ];
  const body = [h('main', [h('h1', title), h('p', text), h('p', h('small', `HTTP ${status}`))])];
  return { html: documentHtml(head, body, intl.lang), csp: pagePolicy({ scripts: [], styles: [ERROR_STYLE] }) };
}
