import { describe, expect, it } from 'vitest';
import { normalizeDirectory, parseGitbookYaml, parseSummary, printSummary, relativePath } from '../shared/git/format.ts';
import { redactText, redactUrl, remoteAccess } from '../shared/git/repo.ts';

describe('.gitbook.yaml', () => {
  it('tolerates an empty file, ./ and trailing slashes, BOM and zero-width characters', () => {
    expect(parseGitbookYaml('')).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} });
    expect(parseGitbookYaml(undefined).root).toBe('');
    expect(parseGitbookYaml('\uFEFFroot: ./docs/\u200B\nstructure:\n  readme: ./intro.md\n  summary: toc.md\nredirects:\n  old: new.md\n'))
      .toEqual({ root: 'docs', readme: 'intro.md', summary: 'toc.md', redirects: { old: 'new.md' } });
    expect(normalizeDirectory('/a/./b/../c/')).toBe('a/c');
    expect(() => parseGitbookYaml('root: [')).toThrow(/not valid YAML/);
  });
});

describe('SUMMARY.md', () => {
  it('reads groups, nested bullets of any indent, pages and link pages', () => {
    const groups = parseSummary('# Table of contents\n\n* [A](a.md)\n   - [B](<dir/b c.md>)\n      + [C](https://c.example)\n* Plain\n  * [D](d/)\n\n## Group\n\n- [E](e.md#x)\n');
    expect(groups).toEqual([
      { entries: [
        { title: 'A', path: 'a.md', children: [{ title: 'B', path: 'dir/b c.md', children: [{ title: 'C', href: 'https://c.example', children: [] }] }] },
        { title: 'D', path: 'd/', children: [] },
      ] },
      { title: 'Group', entries: [{ title: 'E', path: 'e.md', children: [] }] },
    ]);
    const printed = printSummary(groups);
    expect(printed).toContain('  * [B](<dir/b c.md>)');
    expect(parseSummary(printed)).toEqual(groups);
  });

  it('keeps a group\'s anchor (its slug, when not its title\'s) and a file listed twice; printing is a fixed point', () => {
    const source = '# Table of contents\n\n## Guides <a href="#guides" id="guides"></a>\n\n* [A](a.md)\n\n## API reference <a href="#reference" id="reference"></a>\n\n* [B](b.md)\n* [A again](a.md)\n  * [C](c.md)\n';
    const groups = parseSummary(source);
    expect(groups).toEqual([
      // The anchor GitBook derives from the title says nothing the title does not.
      { title: 'Guides', entries: [{ title: 'A', path: 'a.md', children: [] }] },
      { title: 'API reference', anchor: 'reference', entries: [
        { title: 'B', path: 'b.md', children: [] },
        { title: 'A again', path: 'a.md', children: [{ title: 'C', path: 'c.md', children: [] }] },
      ] },
    ]);
    const printed = printSummary(groups);
    expect(printed).toBe('# Table of contents\n\n## Guides\n\n* [A](a.md)\n\n## API reference <a href="#reference" id="reference"></a>\n\n* [B](b.md)\n* [A again](a.md)\n  * [C](c.md)\n');
    expect(parseSummary(printed)).toEqual(groups);
    expect(printSummary(parseSummary(printed))).toBe(printed);
  });

  it('relative paths between content files', () => {
    expect(relativePath('guide', 'reference/api.md')).toBe('../reference/api.md');
    expect(relativePath('', 'guide/setup.md')).toBe('guide/setup.md');
    expect(relativePath('guide', 'guide/setup.md')).toBe('setup.md');
  });
});

describe('credentials', () => {
  it('are split from the URL and removed from texts', () => {
    const access = remoteAccess('https://bot:p%40ss@git.example.com/o/r.git');
    expect(access.url).toBe('https://git.example.com/o/r.git');
    expect(access.onAuth?.()).toEqual({ username: 'bot', password: 'p@ss' });
    expect(redactUrl('https://bot:x@h/r.git')).toBe('https://h/r.git');
    expect(redactText('failed https://bot:p%40ss@h/r.git p@ss', 'https://bot:p%40ss@h/r.git')).toBe('failed https://h/r.git ***');
  });
});
