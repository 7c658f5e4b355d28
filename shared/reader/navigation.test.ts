import { describe, expect, it } from 'vitest';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import { breadcrumbs, tableOfContents } from './navigation.ts';
import { readerIntl } from './messages.ts';
import type { ManifestPage } from '../content/types.ts';

describe('tableOfContents', () => {
  it('lists the page\'s h2-h4 headings, not a heading that titles a hint', () => {
    const body = [
      h('h2', { id: 'install' }, 'Install'),
      h('div', { className: ['hint', 'hint-info'] }, [h('h3', { id: 'before-you-start' }, 'Before you start'), h('p', 'Text')]),
      h('section', [h('h3', { id: 'linux' }, 'Linux')]),
      h('h2', { id: 'configure' }, 'Configure'),
    ];
    const html = toHtml(tableOfContents(body));
    expect(html).toContain('href="#install"');
    expect(html).toContain('href="#linux"');
    expect(html).toContain('href="#configure"');
    expect(html).not.toContain('before-you-start');
  });
});

describe('breadcrumbs', () => {
  const page = (title: string, slug: string, type: ManifestPage['type'] = 'document'): ManifestPage => ({ id: slug, type, title, slug, pages: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
  const space = { title: 'Internal space name', basePath: '/s/site' };

  it('lead with the space only when asked (a site with several spaces), name the ancestors in the site\'s words, and are nothing for a top-level page otherwise', () => {
    const top = { page: page('Install', 'install'), ancestors: [], path: 'install' };
    const nested = { page: page('Linux', 'linux'), ancestors: [page('Guides', 'guides', 'group'), page('Install', 'install')], path: 'guides/install/linux' };
    expect(breadcrumbs(top, space, readerIntl('fr'), { withSpace: false })).toEqual([]);
    const html = toHtml(breadcrumbs(nested, space, readerIntl('fr'), { withSpace: false }));
    expect(html).toBe('<nav class="breadcrumbs" aria-label="Fil d’Ariane"><ol><li>Guides</li><li><a href="/s/site/guides/install">Install</a></li></ol></nav>');
    expect(toHtml(breadcrumbs(top, space, readerIntl('en'), { withSpace: true }))).toBe('<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/s/site">Internal space name</a></li></ol></nav>');
  });
});
