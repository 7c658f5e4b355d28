import { describe, expect, it } from 'vitest';
import { h } from 'hastscript';
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { ManifestPage } from '../content/types.ts';
import { walkPages } from '../content/tree.ts';
import { readerIntl } from './messages.ts';
import { pageTree } from './navigation.ts';
import { sanitizeNodes } from './sanitize.ts';
import { sanitizedPageTree } from './sanitized-page-tree.ts';

const page = (slug: string, title: string, fields: Partial<ManifestPage> = {}): ManifestPage => ({
  id: slug, type: 'document', title, slug, pages: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields,
});

/** Groups, nesting three deep, hidden pages, emoji, markup in titles, and link pages: to a page of the space, outside, and a script URL. */
const pages: ManifestPage[] = [
  page('intro', 'Introduction <b>bold</b> & "quoted"', { emoji: '1f680' }),
  page('guides', 'Guides', {
    type: 'group',
    pages: [
      page('install', 'Install', {
        pages: [
          page('linux', 'Linux', { pages: [page('arm', 'ARM boards'), page('x86', 'x86')] }),
          page('secret', 'Secret', { hidden: true }),
          page('to-linux', 'Linux again', { type: 'link', href: 'install/linux' } as Partial<ManifestPage>),
        ],
      }),
      page('configure', 'Configure'),
    ],
  }),
  page('elsewhere', 'Status page', { type: 'link', href: 'https://status.example.com' } as Partial<ManifestPage>),
  page('script', 'Click me', { type: 'link', href: 'javascript:alert(1)' } as Partial<ManifestPage>),
  page('faq', 'FAQ', { pages: [page('billing', 'Billing')] }),
];

const base = '/s/site';
const intl = readerIntl('fr');
const label = intl.messages.navPages;
/** What the layout sanitized for every page before: that page's own tree, sanitized. */
const sanitizedAlone = (current: string | undefined) => toHtml({ type: 'root', children: sanitizeNodes([h('nav', { ariaLabel: label }, pageTree(pages, base, current, intl))]) });

describe('the sidebar page tree, sanitized once per page tree', () => {
  const paths = [undefined, 'nowhere', ...[...walkPages(pages)].map(({ path }) => path)];

  it('is, for every page of the space (and none), the HTML that page\'s own tree sanitized gives', () => {
    for (const current of paths) {
      expect(toHtml({ type: 'root', children: sanitizedPageTree(pages, base, current, intl, label) }), String(current)).toBe(sanitizedAlone(current));
    }
    const nested = toHtml({ type: 'root', children: sanitizedPageTree(pages, base, 'guides/install/linux/arm', intl, label) });
    expect(nested).toContain('<a href="/s/site/guides/install/linux/arm" aria-current="page">');
    expect(nested.match(/<details open>/g)).toHaveLength(2);
    expect(nested).not.toContain('javascript:');
    expect(nested).toContain('Introduction &#x3C;b>bold&#x3C;/b> &#x26; "quoted"');
  });

  it('shares what is not on the open page\'s path, between pages, frozen', () => {
    const first = sanitizedPageTree(pages, base, 'faq/billing', intl, label);
    const second = sanitizedPageTree(pages, base, 'intro', intl, label);
    const items = (nodes: ElementContent[]) => ((nodes[0] as Element).children[0] as Element).children as Element[];
    // The guides group holds neither open page: the same object in both.
    const guides = (nodes: ElementContent[]) => items(nodes).find((li) => toHtml(li).includes('Guides'))!;
    expect(guides(first)).toBe(guides(second));
    expect(Object.isFrozen(guides(first))).toBe(true);
    expect(items(first).find((li) => toHtml(li).includes('FAQ'))).not.toBe(items(second).find((li) => toHtml(li).includes('FAQ')));
    // Another language or base path is another kept tree.
    expect(toHtml({ type: 'root', children: sanitizedPageTree(pages, '/s/other', 'intro', readerIntl('en'), 'Pages') })).toContain('<nav aria-label="Pages"><ul><li><a href="/s/other/intro" aria-current="page">');
  });
});
