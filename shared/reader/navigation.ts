import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ManifestPage } from '../content/types.ts';
import { emojiText } from '../content/emoji.ts';
import { walkPages, type LocatedPage } from '../content/tree.ts';
import { EXTERNAL_LINK, normalizePath } from '../git/format.ts';
import { ENGLISH, message, type ReaderIntl } from './messages.ts';

/**
 * The reader's navigation, as hast: the page tree (groups of pages collapsed unless the open
 * page is inside them, with <details> so it works without script), breadcrumbs, "On this
 * page" and previous/next, their words in the site's locale (English by default). Everything
 * goes through the layout's sanitizer.
 */

/** A page's title as readers see it: its emoji first (code points such as 1f680 shown as the character). */
export const pageLabel = (page: Pick<ManifestPage, 'emoji' | 'title'>) => `${page.emoji ? `${emojiText(page.emoji)} ` : ''}${page.title}`;

/** Reader paths of the pages imported from files, by the file's Git path. */
function pagesByFile(pages: ManifestPage[]): Map<string, string> {
  const byFile = new Map<string, string>();
  for (const { page, path } of walkPages(pages)) if (page.type === 'document' && page.git?.path) byFile.set(page.git.path, path);
  return byFile;
}

/**
 * Where a link page of the tree points. A URL is kept. A path is a file of the space (GitBook
 * keeps a file listed twice in SUMMARY.md as a link page to its path, relative to SUMMARY.md):
 * it opens the page imported from that file, found by its Git path (exactly, then as the end
 * of one, for a SUMMARY.md below the content root); undefined when no page has that file.
 */
export function linkPageHref(href: string | undefined, byFile: Map<string, string>, base: string): string | undefined {
  if (!href) return undefined;
  if (EXTERNAL_LINK.test(href)) return href;
  const hash = href.indexOf('#');
  const anchor = hash >= 0 ? href.slice(hash) : '';
  let file = hash >= 0 ? href.slice(0, hash) : href;
  try {
    file = decodeURI(file);
  } catch {
    // kept as written
  }
  const wanted = normalizePath(file);
  if (!wanted) return undefined;
  const candidates = /\.md$/i.test(wanted) ? [wanted] : [`${wanted}.md`, `${wanted}/README.md`];
  for (const candidate of candidates) {
    const exact = byFile.get(candidate);
    if (exact !== undefined) return `${base}/${exact}${anchor}`;
  }
  const ending = [...byFile].filter(([path]) => candidates.some((c) => path.endsWith(`/${c}`)));
  return ending.length === 1 ? `${base}/${ending[0]![1]}${anchor}` : undefined;
}

/** The page tree of a site space; `current` is the open page's path. */
export function pageTree(pages: ManifestPage[], base: string, current: string | undefined, intl: ReaderIntl = ENGLISH): ElementContent[] {
  let byFile: Map<string, string> | undefined;
  return branch(pages, { base, current, intl, byFile: () => (byFile ??= pagesByFile(pages)) }, '');
}

/**
 * One level of the tree. A page with pages under it is its link, then a <details> whose
 * <summary> only opens and closes them (a link inside a summary would be a control inside a
 * control, which screen readers cannot operate); open when the open page is inside.
 */
function branch(pages: ManifestPage[], tree: { base: string; current: string | undefined; intl: ReaderIntl; byFile: () => Map<string, string> }, parent: string): ElementContent[] {
  const { base, current } = tree;
  const items = pages.filter((p) => !p.hidden).map((page) => {
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    const children = page.pages.length > 0 ? branch(page.pages, tree, path) : [];
    if (page.type === 'group') return h('li', [h('div.page-group', page.title), ...children]);
    if (page.type === 'link') {
      const href = linkPageHref(page.href, tree.byFile(), base);
      const external = href !== undefined && EXTERNAL_LINK.test(href);
      const link = href === undefined ? h('span', page.title) : h('a', { href, rel: external ? ['noopener'] : undefined }, external ? `${page.title} ↗` : page.title);
      return h('li', [link, ...children]);
    }
    const link = h('a', { href: `${base}/${path}`, ariaCurrent: path === current ? 'page' : undefined }, pageLabel(page));
    if (children.length === 0) return h('li', [link]);
    const open = current !== undefined && (current === path || current.startsWith(`${path}/`));
    return h('li', [link, h('details', { open }, [h('summary', { ariaLabel: message(tree.intl, 'subpages', { title: page.title }) }), ...children])]);
  });
  return items.length > 0 ? [h('ul', items)] : [];
}

/**
 * Space › ancestors of the open page (groups as text, pages as links). The space leads only
 * when the visitor sees several (variants, sections), as GitBook's crumbs do: on a one-space
 * site its title is the space's internal name, and a top-level page there has no breadcrumb.
 */
export function breadcrumbs(located: LocatedPage, space: { title: string; basePath: string }, intl: ReaderIntl = ENGLISH, options: { withSpace: boolean } = { withSpace: true }): ElementContent[] {
  const crumbs: ElementContent[] = options.withSpace ? [h('li', h('a', { href: space.basePath }, space.title))] : [];
  let path = '';
  for (const ancestor of located.ancestors) {
    path = path ? `${path}/${ancestor.slug}` : ancestor.slug;
    crumbs.push(h('li', ancestor.type === 'document' ? h('a', { href: `${space.basePath}/${path}` }, pageLabel(ancestor)) : ancestor.title));
  }
  if (crumbs.length === 0) return [];
  return [h('nav.breadcrumbs', { ariaLabel: intl.messages.breadcrumb }, h('ol', crumbs))];
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if ((node.properties.className as string[] | undefined)?.includes('anchor')) return '';
  return node.children.map(textOf).join('');
}

/** "On this page": the body's headings (h2 to h4, those with an id), none for fewer than two; two levels shown. */
export function tableOfContents(body: ElementContent[], intl: ReaderIntl = ENGLISH): ElementContent[] {
  const found: { id: string; level: number; text: string }[] = [];
  const walk = (nodes: ElementContent[]) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      const level = /^h([234])$/.exec(node.tagName)?.[1];
      if (level && typeof node.properties.id === 'string') found.push({ id: node.properties.id, level: Number(level), text: textOf(node).trim() });
      // A heading inside a hint is the hint's title, not a section of the page.
      else if (!(node.properties.className as string[] | undefined)?.includes('hint')) walk(node.children as ElementContent[]);
    }
  };
  walk(body);
  if (found.length < 2) return [];
  // Classes by depth below the page's top heading level (documents may start at h3).
  const top = Math.min(...found.map((f) => f.level));
  return [h('nav', { ariaLabel: intl.messages.onThisPage }, [
    h('p.toc-title', intl.messages.onThisPage),
    h('ul', found.filter((f) => f.level - top < 2).map((f) => h('li', { className: [`toc-${f.level - top + 2}`] }, h('a', { href: `#${f.id}` }, f.text)))),
  ])];
}

/** Previous and next readable pages around the open one. */
export function pagination(pages: LocatedPage[], located: LocatedPage, base: string, intl: ReaderIntl = ENGLISH): Element[] {
  const index = pages.findIndex((p) => p.page.id === located.page.id);
  const prev = index > 0 ? pages[index - 1] : undefined;
  const next = index >= 0 ? pages[index + 1] : undefined;
  if (!prev && !next) return [];
  const link = (l: LocatedPage, rel: 'prev' | 'next') =>
    h('a', { rel: [rel], href: `${base}/${l.path}` }, [h('small', rel === 'prev' ? `← ${intl.messages.previous}` : `${intl.messages.next} →`), h('br'), l.page.title]);
  return [h('nav.pagination', { ariaLabel: intl.messages.pagination }, [prev ? link(prev, 'prev') : h('span'), next ? link(next, 'next') : h('span')])];
}
