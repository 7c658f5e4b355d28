import type { ManifestPage } from '../content/types.ts';
import { defaultCustomization } from '../presenters/site.ts';
import { escapeHtml, safeColor, safeUrl } from './html.ts';
import { sectionTree, type ReaderSite, type ReaderSpace } from './site.ts';

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
  main: string;
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
img{max-width:100%}table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:.3rem .6rem}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;border-top:1px solid #eee;padding-top:1rem}nav.pagination a{text-decoration:none}
.search-results li{margin-bottom:1rem}.search-results p{margin:.25rem 0;color:#555}footer.bottom{padding:1.5rem;border-top:1px solid #eee;color:#666;font-size:.9rem;display:flex;gap:2rem;flex-wrap:wrap}
@media (max-width:800px){.layout{flex-direction:column}aside.sidebar{width:auto;min-height:0;border-right:0}}
`;

/** Tab switching: clicking a tab shows its panel and hides its siblings (no JS: the first tab shows). */
const SCRIPT = `document.addEventListener('click',function(e){var t=e.target.closest&&e.target.closest('[role=tab]');if(!t)return;var g=t.closest('[data-tabs]');g.querySelectorAll(':scope>.tab-list>[role=tab]').forEach(function(b){var on=b===t;b.setAttribute('aria-selected',String(on));var p=document.getElementById(b.getAttribute('aria-controls'));if(p)p.hidden=!on;});});`;

function pageTree(pages: ManifestPage[], base: string, current: string | undefined, parent: string): string {
  const items = pages.filter((p) => !p.hidden).map((page) => {
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    const children = page.pages.length > 0 ? pageTree(page.pages, base, current, path) : '';
    if (page.type === 'group') return `<li><div class="page-group">${escapeHtml(page.title)}</div>${children}</li>`;
    if (page.type === 'link') return `<li><a href="${safeUrl(page.href ?? '#')}" rel="noopener">${escapeHtml(page.title)} ↗</a>${children}</li>`;
    const here = path === current ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHtml(`${base}/${path}`)}"${here}>${page.emoji ? `${escapeHtml(page.emoji)} ` : ''}${escapeHtml(page.title)}</a>${children}</li>`;
  });
  return items.length > 0 ? `<ul>${items.join('')}</ul>` : '';
}

function sectionNav(input: ShellInput): string {
  const { site, space } = input;
  if (site.sections.length === 0) return '';
  const sectionHref = (id: string) => site.spaces.find((s) => s.siteSpace.section === id && s.isDefault)?.basePath ?? site.basePath;
  const render = (nodes: ReturnType<typeof sectionTree>): string => nodes.map((node) => {
    if (node.kind === 'group') return `<div class="group"><span>${escapeHtml(node.item.title)}</span>${render(node.children)}</div>`;
    const here = space?.section?.id === node.item.id ? ' aria-current="true"' : '';
    return `<a href="${escapeHtml(sectionHref(node.item.id))}"${here}>${node.item.icon ? `${escapeHtml(node.item.icon)} ` : ''}${escapeHtml(node.item.title)}</a>`;
  }).join('');
  return `<nav class="sections" aria-label="Sections">${render(sectionTree(site))}</nav>`;
}

function spaceSwitcher(input: ShellInput): string {
  const { site, space } = input;
  if (!space) return '';
  const siblings = site.spaces.filter((s) => s.siteSpace.section === space.siteSpace.section);
  if (siblings.length < 2) return '';
  const links = siblings.map((s) => `<li><a href="${escapeHtml(s.basePath)}"${s === space ? ' aria-current="true"' : ''}>${escapeHtml(s.title)}</a></li>`);
  return `<nav class="spaces" aria-label="Spaces"><ul>${links.join('')}</ul></nav>`;
}

export function renderShell(input: ShellInput): string {
  const c = input.customization;
  const s = c.styling;
  const siteTitle = c.title || input.site.tree.site.title;
  const logo = (c as { header?: { logo?: { light?: string } } }).header?.logo?.light;
  const favicon = (c.favicon as { icon?: { light?: string } }).icon?.light;
  const headerLinks = (c.header.links as { title: string; to?: { url?: string } | string }[]).map((l) => {
    const url = typeof l.to === 'string' ? l.to : l.to?.url ?? '#';
    return `<a href="${safeUrl(url)}">${escapeHtml(l.title)}</a>`;
  });
  const footerGroups = (c.footer.groups as { title: string; links: { title: string; to?: { url?: string } | string }[] }[]).map((g) =>
    `<div><strong>${escapeHtml(g.title)}</strong><ul>${g.links.map((l) => `<li><a href="${safeUrl(typeof l.to === 'string' ? l.to : l.to?.url ?? '#')}">${escapeHtml(l.title)}</a></li>`).join('')}</ul></div>`);
  const announcement = c.announcement.enabled && c.announcement.message
    ? `<div class="announcement" role="status" data-style="${escapeHtml(c.announcement.style)}">${escapeHtml(c.announcement.message)}</div>`
    : '';
  const searchAction = input.space?.basePath ?? input.site.basePath;
  const documentTitle = input.title && input.title !== siteTitle ? `${input.title} · ${siteTitle}` : siteTitle;
  const sidebar = input.space
    ? `<aside class="sidebar">${spaceSwitcher(input)}<nav aria-label="Pages">${pageTree(input.pages ?? [], input.space.basePath, input.currentPath, '')}</nav></aside>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(documentTitle)}</title>
${input.description ? `<meta name="description" content="${escapeHtml(input.description)}">` : ''}
${input.noindex ? '<meta name="robots" content="noindex">' : ''}
${input.markdownHref ? `<link rel="alternate" type="text/markdown" href="${escapeHtml(input.markdownHref)}">` : ''}
${favicon ? `<link rel="icon" href="${safeUrl(favicon)}">` : ''}
<style>:root{--primary:${safeColor(s.primaryColor.light, '#346DDB')};--info:${safeColor(s.infoColor.light, '#787878')};--success:${safeColor(s.successColor.light, '#02B341')};--warning:${safeColor(s.warningColor.light, '#FE9A00')};--danger:${safeColor(s.dangerColor.light, '#FB2C36')}}${STYLE}</style>
</head>
<body>
${announcement}
<header class="top">
<a class="brand" href="${escapeHtml(input.site.basePath)}">${logo ? `<img src="${safeUrl(logo)}" alt="">` : ''}<span>${escapeHtml(siteTitle)}</span></a>
<nav class="links" aria-label="Header">${headerLinks.join('')}</nav>
<form role="search" method="get" action="${escapeHtml(searchAction)}"><input type="search" name="q" placeholder="Search…" aria-label="Search" value="${escapeHtml(input.query ?? '')}"></form>
</header>
${sectionNav(input)}
<div class="layout">
${sidebar}
<main id="content">
${input.main}
</main>
</div>
<footer class="bottom">${footerGroups.join('')}${c.trademark.enabled ? '<span>Published with docs-service</span>' : ''}</footer>
<script>${SCRIPT}</script>
</body>
</html>`;
}

/** A plain error page (404, 401) in the reader's look, with no site data. */
export function errorPage(status: number, title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><small>HTTP ${status}</small></p></main></body></html>`;
}
