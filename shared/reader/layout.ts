import type { ElementContent, Root } from 'hast';
import { h } from 'hastscript';
import type { ManifestPage } from '../content/types.ts';
import { defaultCustomization } from '../presenters/site.ts';
import { safeColor } from './html.ts';
import { safeHref, sanitizeNodes, treeHtml } from './sanitize.ts';
import { pagePolicy } from './security-headers.ts';
import { sectionTree, type ReaderSite, type ReaderSpace } from './site.ts';

/**
 * The reader's page shell, built as one hast tree (every value escaped by hast-util-to-html).
 * Everything that holds site data (navigation, header and footer links, the page itself)
 * goes through the sanitizer; only the search form and the tab script are the shell's own.
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
  /** Origins of images besides 'self' and https: (presigned storage URLs). */
  imageOrigins?: string[];
  noindex: boolean;
  query?: string;
  /** Link to this page as markdown. */
  markdownHref?: string;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#fff}
a{color:var(--primary)}header.top{display:flex;gap:1rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid #e5e5e5;flex-wrap:wrap}
header.top .brand{display:flex;gap:.5rem;align-items:center;font-weight:600;font-size:1.1rem;color:inherit;text-decoration:none}
header.top .brand img{height:28px}header.top nav.links{display:flex;gap:1rem}header.top form{margin-left:auto}
header.top input[type=search]{padding:.4rem .6rem;border:1px solid #ccc;border-radius:6px;min-width:14rem}
.announcement{padding:.5rem 1.5rem;background:var(--primary);color:#fff}.announcement a{color:#fff}
nav.sections{display:flex;gap:1rem;padding:.25rem 1.5rem;border-bottom:1px solid #eee;flex-wrap:wrap}nav.sections a[aria-current]{font-weight:600;text-decoration:none;border-bottom:2px solid var(--primary)}
nav.sections .group{display:flex;gap:.5rem;align-items:center}nav.sections .group>span{color:#666;font-size:.85rem}
.layout{display:flex;max-width:80rem;margin:0 auto}aside.sidebar{width:17rem;flex:none;padding:1rem 1.5rem;border-right:1px solid #eee;min-height:80vh}
aside.sidebar ul{list-style:none;margin:0;padding-left:.75rem}aside.sidebar>nav>ul{padding-left:0}aside.sidebar a{display:block;padding:.15rem .25rem;text-decoration:none;color:#333;border-radius:4px}
aside.sidebar a[aria-current=page]{background:color-mix(in srgb,var(--primary) 12%,#fff);color:var(--primary);font-weight:600}
aside.sidebar .page-group{margin-top:.75rem;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:#777}
.spaces{margin-bottom:1rem}.spaces a[aria-current]{font-weight:600}
main{flex:1;min-width:0;padding:1.5rem 2.5rem}main h1{margin-top:0}.anchor{margin-left:-1rem;width:1rem;display:inline-block;opacity:0;text-decoration:none}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor{opacity:.5}
.hint{border-left:4px solid var(--info);background:#f6f7f9;padding:.5rem 1rem;border-radius:4px;margin:1rem 0}.hint-success{border-color:var(--success)}.hint-warning{border-color:var(--warning)}.hint-danger{border-color:var(--danger)}
.tabs{border:1px solid #e5e5e5;border-radius:6px;margin:1rem 0}.tab-list{display:flex;border-bottom:1px solid #e5e5e5}
.tab-list button{background:none;border:0;padding:.5rem 1rem;cursor:pointer;font:inherit}.tab-list button[aria-selected=true]{border-bottom:2px solid var(--primary);font-weight:600}.tab-panel{padding:.5rem 1rem}
figure{margin:1rem 0}figure.code figcaption{font-size:.85rem;background:#eef;padding:.25rem .75rem;border-radius:6px 6px 0 0}pre{background:#f5f5f7;padding:.75rem 1rem;overflow:auto;border-radius:6px}figure.code figcaption+pre{margin-top:0;border-radius:0 0 6px 6px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}.content-ref,.embed a{display:flex;justify-content:space-between;border:1px solid #ddd;border-radius:6px;padding:.75rem 1rem;text-decoration:none}
img{max-width:100%}table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:.3rem .6rem}.align-left{text-align:left}.align-right{text-align:right}.align-center{text-align:center}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;border-top:1px solid #eee;padding-top:1rem}nav.pagination a{text-decoration:none}
.search-results li{margin-bottom:1rem}.search-results p{margin:.25rem 0;color:#555}footer.bottom{padding:1.5rem;border-top:1px solid #eee;color:#666;font-size:.9rem;display:flex;gap:2rem;flex-wrap:wrap}
@media (max-width:800px){.layout{flex-direction:column}aside.sidebar{width:auto;min-height:0;border-right:0}}
`;

/** Tab switching: clicking a tab shows its panel and hides its siblings (no JS: the first tab shows). */
const SCRIPT = `document.addEventListener('click',function(e){var t=e.target.closest&&e.target.closest('[role=tab]');if(!t)return;var g=t.closest('[data-tabs]');g.querySelectorAll(':scope>.tab-list>[role=tab]').forEach(function(b){var on=b===t;b.setAttribute('aria-selected',String(on));var p=document.getElementById(b.getAttribute('aria-controls'));if(p)p.hidden=!on;});});`;

/** A rendered HTML page with its Content-Security-Policy (hashes of its inline script and style). */
export interface RenderedPage {
  html: string;
  csp: string;
}

type Link = { title: string; to?: { url?: string } | string };

function pageTree(pages: ManifestPage[], base: string, current: string | undefined, parent: string): ElementContent[] {
  const items = pages.filter((p) => !p.hidden).map((page) => {
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    const children = page.pages.length > 0 ? pageTree(page.pages, base, current, path) : [];
    if (page.type === 'group') return h('li', [h('div.page-group', page.title), ...children]);
    if (page.type === 'link') return h('li', [h('a', { href: page.href ?? '#', rel: ['noopener'] }, `${page.title} ↗`), ...children]);
    return h('li', [h('a', { href: `${base}/${path}`, ariaCurrent: path === current ? 'page' : undefined }, `${page.emoji ? `${page.emoji} ` : ''}${page.title}`), ...children]);
  });
  return items.length > 0 ? [h('ul', items)] : [];
}

function sectionNav(input: ShellInput): ElementContent[] {
  const { site, space } = input;
  if (site.sections.length === 0) return [];
  const sectionHref = (id: string) => site.spaces.find((s) => s.siteSpace.section === id && s.isDefault)?.basePath ?? site.basePath;
  const render = (nodes: ReturnType<typeof sectionTree>): ElementContent[] => nodes.map((node) => {
    if (node.kind === 'group') return h('div.group', [h('span', node.item.title), ...render(node.children)]);
    const here = space?.section?.id === node.item.id ? 'true' : undefined;
    return h('a', { href: sectionHref(node.item.id), ariaCurrent: here }, `${node.item.icon ? `${node.item.icon} ` : ''}${node.item.title}`);
  });
  return [h('nav.sections', { ariaLabel: 'Sections' }, render(sectionTree(site)))];
}

function spaceSwitcher(input: ShellInput): ElementContent[] {
  const { site, space } = input;
  if (!space) return [];
  const siblings = site.spaces.filter((s) => s.siteSpace.section === space.siteSpace.section);
  if (siblings.length < 2) return [];
  return [h('nav.spaces', { ariaLabel: 'Spaces' }, h('ul', siblings.map((s) => h('li', h('a', { href: s.basePath, ariaCurrent: s === space ? 'true' : undefined }, s.title)))))];
}

const linkUrl = (l: Link) => (typeof l.to === 'string' ? l.to : l.to?.url ?? '#');

/** Serializes a page: doctype, then the tree. */
function documentHtml(head: ElementContent[], body: ElementContent[]): string {
  const tree: Root = { type: 'root', children: [{ type: 'doctype' }, h('html', { lang: 'en' }, [h('head', head), h('body', body)])] };
  return treeHtml(tree);
}

export function renderShell(input: ShellInput): RenderedPage {
  const c = input.customization;
  const s = c.styling;
  const siteTitle = c.title || input.site.tree.site.title;
  const logo = (c as { header?: { logo?: { light?: string } } }).header?.logo?.light;
  const favicon = safeHref((c.favicon as { icon?: { light?: string } }).icon?.light);
  const headerLinks = (c.header.links as Link[]).map((l) => h('a', { href: linkUrl(l) }, l.title));
  const footerGroups = (c.footer.groups as { title: string; links: Link[] }[]).map((g) =>
    h('div', [h('strong', g.title), h('ul', g.links.map((l) => h('li', h('a', { href: linkUrl(l) }, l.title))))]));
  const announcement = c.announcement?.enabled ? [h('div.announcement', { role: 'status' }, c.announcement.message)] : [];
  const searchAction = input.space?.basePath ?? input.site.basePath;
  const documentTitle = input.title && input.title !== siteTitle ? `${input.title} · ${siteTitle}` : siteTitle;
  const style = `:root{--primary:${safeColor(s.primaryColor.light, '#346DDB')};--info:${safeColor(s.infoColor.light, '#787878')};--success:${safeColor(s.successColor.light, '#02B341')};--warning:${safeColor(s.warningColor.light, '#FE9A00')};--danger:${safeColor(s.dangerColor.light, '#FB2C36')}}${STYLE}`;
  const head = [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', documentTitle),
    ...(input.description ? [h('meta', { name: 'description', content: input.description })] : []),
    ...(input.noindex ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
    ...(input.markdownHref ? [h('link', { rel: ['alternate'], type: 'text/markdown', href: input.markdownHref })] : []),
    ...(favicon ? [h('link', { rel: ['icon'], href: favicon })] : []),
    h('style', style),
  ];
  const sidebar = input.space
    ? [h('aside.sidebar', sanitizeNodes([...spaceSwitcher(input), h('nav', { ariaLabel: 'Pages' }, pageTree(input.pages ?? [], input.space.basePath, input.currentPath, ''))]))]
    : [];
  const form = h('form', { role: 'search', method: 'get', action: searchAction }, h('input', { type: 'search', name: 'q', placeholder: 'Search…', ariaLabel: 'Search', value: input.query ?? '' }));
  const body = [
    ...sanitizeNodes(announcement),
    h('header.top', [
      ...sanitizeNodes([h('a.brand', { href: input.site.basePath }, [...(logo ? [h('img', { src: logo, alt: '' })] : []), h('span', siteTitle)]), h('nav.links', { ariaLabel: 'Header' }, headerLinks)]),
      form,
    ]),
    ...sanitizeNodes(sectionNav(input)),
    h('div.layout', [...sidebar, h('main', { id: 'content' }, sanitizeNodes(input.main))]),
    h('footer.bottom', sanitizeNodes([...footerGroups, ...(c.trademark.enabled ? [h('span', 'Published with docs-service')] : [])])),
    h('script', SCRIPT),
  ];
  return { html: documentHtml(head, body), csp: pagePolicy({ scripts: [SCRIPT], styles: [style], imageOrigins: input.imageOrigins }) };
}

const ERROR_STYLE = 'body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}';

/** A plain error page (404, 401) in the reader's look, with no site data. */
export function errorPage(status: number, title: string, message: string): RenderedPage {
  const head = [
    h('meta', { charSet: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('meta', { name: 'robots', content: 'noindex' }),
    h('title', title),
    h('style', ERROR_STYLE),
  ];
  const body = [h('main', [h('h1', title), h('p', message), h('p', h('small', `HTTP ${status}`))])];
  return { html: documentHtml(head, body), csp: pagePolicy({ scripts: [], styles: [ERROR_STYLE] }) };
}
