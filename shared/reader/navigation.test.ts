import { describe, expect, it } from 'vitest';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import { tableOfContents } from './navigation.ts';

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
