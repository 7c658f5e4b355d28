import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ManifestPage } from '../content/types.ts';
import type { LocatedPage } from '../content/tree.ts';

/**
 * The reader's navigation, as hast: the page tree (groups of pages collapsed unless the open
 * page is inside them, with <details> so it works without script), breadcrumbs, "On this
 * page" and previous/next. Everything goes through the layout's sanitizer.
 */

const pageLabel = (page: ManifestPage) => `${page.emoji ? `${page.emoji} ` : ''}${page.title}`;

/** The page tree of a site space; `current` is the open page's path. */
export function pageTree(pages: ManifestPage[], base: string, current: string | undefined, parent = ''): ElementContent[] {
  const items = pages.filter((p) => !p.hidden).map((page) => {
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    const children = page.pages.length > 0 ? pageTree(page.pages, base, current, path) : [];
    if (page.type === 'group') return h('li', [h('div.page-group', page.title), ...children]);
    if (page.type === 'link') return h('li', [h('a', { href: page.href ?? '#', rel: ['noopener'] }, `${page.title} ↗`), ...children]);
    const link = h('a', { href: `${base}/${path}`, ariaCurrent: path === current ? 'page' : undefined }, pageLabel(page));
    if (children.length === 0) return h('li', [link]);
    const open = current !== undefined && (current === path || current.startsWith(`${path}/`));
    return h('li', h('details', { open }, [h('summary', link), ...children]));
  });
  return items.length > 0 ? [h('ul', items)] : [];
}

/** Space › ancestors of the open page (groups as text, pages as links). */
export function breadcrumbs(located: LocatedPage, space: { title: string; basePath: string }): ElementContent[] {
  const crumbs: ElementContent[] = [h('li', h('a', { href: space.basePath }, space.title))];
  let path = '';
  for (const ancestor of located.ancestors) {
    path = path ? `${path}/${ancestor.slug}` : ancestor.slug;
    crumbs.push(h('li', ancestor.type === 'document' ? h('a', { href: `${space.basePath}/${path}` }, pageLabel(ancestor)) : ancestor.title));
  }
  return [h('nav.breadcrumbs', { ariaLabel: 'Breadcrumb' }, h('ol', crumbs))];
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if ((node.properties.className as string[] | undefined)?.includes('anchor')) return '';
  return node.children.map(textOf).join('');
}

/** "On this page": the body's headings (h2 to h4, those with an id), none for fewer than two; two levels shown. */
export function tableOfContents(body: ElementContent[]): ElementContent[] {
  const found: { id: string; level: number; text: string }[] = [];
  const walk = (nodes: ElementContent[]) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      const level = /^h([234])$/.exec(node.tagName)?.[1];
      if (level && typeof node.properties.id === 'string') found.push({ id: node.properties.id, level: Number(level), text: textOf(node).trim() });
      else walk(node.children as ElementContent[]);
    }
  };
  walk(body);
  if (found.length < 2) return [];
  // Classes by depth below the page's top heading level (documents may start at h3).
  const top = Math.min(...found.map((f) => f.level));
  return [h('nav', { ariaLabel: 'On this page' }, [
    h('p.toc-title', 'On this page'),
    h('ul', found.filter((f) => f.level - top < 2).map((f) => h('li', { className: [`toc-${f.level - top + 2}`] }, h('a', { href: `#${f.id}` }, f.text)))),
  ])];
}

/** Previous and next readable pages around the open one. */
export function pagination(pages: LocatedPage[], located: LocatedPage, base: string): Element[] {
  const index = pages.findIndex((p) => p.page.id === located.page.id);
  const prev = index > 0 ? pages[index - 1] : undefined;
  const next = index >= 0 ? pages[index + 1] : undefined;
  if (!prev && !next) return [];
  const link = (l: LocatedPage, rel: 'prev' | 'next') =>
    h('a', { rel: [rel], href: `${base}/${l.path}` }, [h('small', rel === 'prev' ? '← Previous' : 'Next →'), h('br'), l.page.title]);
  return [h('nav.pagination', { ariaLabel: 'Pagination' }, [prev ? link(prev, 'prev') : h('span'), next ? link(next, 'next') : h('span')])];
}
