import { readdirSync, statSync } from 'node:fs';
import type { Root } from 'mdast';
import { join } from 'node:path';

/** Real-world markdown for parser comparisons: files of a folder, READMEs of installed packages. */

/** Every `.md` file under `dir` (under 256 KB, the page limit), in a stable order. */
export function markdownFiles(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) markdownFiles(path, into);
    else if (stat?.isFile() && /\.md$/i.test(name) && stat.size < 256 * 1024) into.push(path);
  }
  return into;
}

/** The READMEs of installed packages smaller than `maxBytes`, the first `limit` by package name. */
export function packageReadmes(limit: number, maxBytes: number): string[] {
  const root = join(import.meta.dirname, '..', '..', 'node_modules');
  const found: string[] = [];
  for (const name of readdirSync(root).sort()) {
    for (const pkg of name.startsWith('@') ? readdirSync(join(root, name)).map((n) => join(name, n)) : [name]) {
      if (found.length >= limit) return found;
      const path = ['README.md', 'readme.md'].map((file) => join(root, pkg, file)).find((candidate) => (statSync(candidate, { throwIfNoEntry: false })?.size ?? Infinity) < maxBytes);
      if (path) found.push(path);
    }
  }
  return found;
}

/** A page of bench:git's generated repository (bench/git/run.ts): frontmatter, a heading, a list, a hint, code, an image. */
export const generatedPage = (s: number, p: number) => [
  '---', `description: Page ${p} of section ${s}`, '---', '', `# Page ${s}.${p}`, '',
  `Page ${s}.${p} explains how to configure the service. Read the [section](../section-${s}/README.md) first.`, '',
  '## Steps', '', '1. Install the tool.', `2. Set the option \`level\` to ${p}.`, '3. Deploy.', '',
  '{% hint style="info" %}', `Section ${s} needs no restart.`, '{% endhint %}', '',
  '```bash', `tool deploy --level ${p}`, '```', '', `![Figure](../.gitbook/assets/figure-${p}.png)`, '',
].join('\n');

/** A tree without its nodes' positions, for comparing parses that place them differently (or not at all). */
export const withoutPositions = (tree: Root): unknown => JSON.parse(JSON.stringify(tree, (key, value) => (key === 'position' ? undefined : value)));
