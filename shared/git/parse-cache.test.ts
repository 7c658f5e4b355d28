import { describe, expect, it } from 'vitest';
import { parsedBlob, parseMarkdownBlob } from './parse-cache.ts';
import { parseSummary } from './format.ts';

const markdown = ['---', 'description: Cached', '---', '', '# Title', '', 'A [link](other.md).', ''].join('\n');

describe('the git worker parse cache', () => {
  it('parses a blob once: the next read of the same blob id is a hit', () => {
    let parses = 0;
    const parse = (text: string) => {
      parses++;
      return parseSummary(text);
    };
    const summary = '# Summary\n\n* [Intro](README.md)\n  * [Child](child.md)\n';
    const first = parsedBlob('summary', 'oid-summary-1', summary, parse);
    const second = parsedBlob('summary', 'oid-summary-1', summary, parse);
    expect(parses).toBe(1);
    expect(second).toEqual(first);
    // Another kind of parse of the same blob is another entry.
    parsedBlob('other', 'oid-summary-1', summary, parse);
    expect(parses).toBe(2);
  });

  it('hands every hit a copy of its own: a caller that edits its copy changes nothing for the next', async () => {
    const first = await parseMarkdownBlob('oid-page-1', markdown);
    const second = await parseMarkdownBlob('oid-page-1', markdown);
    const third = await parseMarkdownBlob('oid-page-1', markdown);
    expect(second).toEqual(first);
    expect(second).not.toBe(third);
    expect(second.document).not.toBe(third.document);
    (second.document.nodes as unknown[]).length = 0;
    second.frontmatter.description = 'edited';
    const fourth = await parseMarkdownBlob('oid-page-1', markdown);
    expect(fourth).toEqual(first);
    expect(fourth.frontmatter.description).toBe('Cached');
  });
});
