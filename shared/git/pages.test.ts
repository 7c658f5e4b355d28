import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../content/markdown/index.ts';
import { deepFreeze } from '../deep-freeze.ts';
import type { StoredDocument } from '../content/types.ts';
import { refsToPaths, resolveRefs, type PathResolver } from './pages.ts';

const resolver: PathResolver = {
  page: (path) => ({ 'guide/install.md': 'page-install', 'guide/README.md': 'page-guide' } as Record<string, string>)[path],
  file: (path) => (path === '.gitbook/assets/diagram.png' ? 'file-diagram' : undefined),
  include: (path) => (path === '.gitbook/includes/note.md' ? 'include-note' : undefined),
};

const markdown = [
  '# Setup',
  '',
  'Plain text with no link.',
  '',
  '- first item',
  '- see [install](install.md) and [nothing](missing.md)',
  '',
  '![Diagram](../.gitbook/assets/diagram.png)',
  '',
  '{% include "../.gitbook/includes/note.md" %}',
  '',
  'Another paragraph.',
  '',
].join('\n');

describe('resolveRefs (import)', () => {
  // Frozen: resolveRefs copies what it changes and never writes into the document it was given.
  const parsed = deepFreeze(markdownToDocument(markdown).document) as unknown as StoredDocument;
  const resolved = resolveRefs(parsed, 'guide', resolver);
  const nodes = (doc: StoredDocument) => (doc as unknown as { nodes: { type: string; nodes?: unknown[]; data?: Record<string, unknown> }[] }).nodes;

  it('resolves links, images and includes to ids; a target that names nothing stays as written', () => {
    const text = JSON.stringify(resolved);
    expect(text).toContain('{"kind":"page","page":"page-install"}');
    expect(text).toContain('"page":"missing.md"');
    expect(text).toContain('{"kind":"file","file":"file-diagram"}');
    expect(nodes(resolved).find((n) => n.type === 'reusable-content')?.data).toEqual({ ref: { kind: 'reusable-content', reusableContent: 'include-note' } });
  });

  it('copies only the path to a changed ref: nodes without one are the frozen originals, which stay as they were', () => {
    const before = JSON.stringify(parsed);
    expect(resolved).not.toBe(parsed);
    const [original, copy] = [nodes(parsed), nodes(resolved)];
    expect(copy).toHaveLength(original.length);
    for (let i = 0; i < original.length; i++) {
      const holdsRef = /"ref"|"src"|"path"/.test(JSON.stringify(original[i]));
      if (holdsRef) expect(copy[i], original[i]!.type).not.toBe(original[i]);
      else expect(copy[i], original[i]!.type).toBe(original[i]);
    }
    // In the list, the item without a link is shared too.
    const list = copy.find((n) => n.type === 'list-unordered')!;
    const originalList = original.find((n) => n.type === 'list-unordered')!;
    expect(list.nodes![0]).toBe(originalList.nodes![0]);
    expect(list.nodes![1]).not.toBe(originalList.nodes![1]);
    expect(JSON.stringify(parsed)).toBe(before);
  });

  it('prints back (refsToPaths) to the paths as written, leaving the resolved document as it was', () => {
    const resolvedText = JSON.stringify(resolved);
    const printed = refsToPaths(deepFreeze(resolved), 'guide/setup.md', {
      pages: new Map([['page-install', 'guide/install.md']]),
      files: new Map([['file-diagram', '.gitbook/assets/diagram.png']]),
      includes: new Map([['include-note', '.gitbook/includes/note.md']]),
    });
    const text = JSON.stringify(printed);
    expect(text).toContain('{"kind":"page","page":"install.md"}');
    expect(text).toContain('{"kind":"file","file":"../.gitbook/assets/diagram.png"}');
    expect(nodes(printed).find((n) => n.type === 'reusable-content')?.data).toEqual({ path: '../.gitbook/includes/note.md' });
    expect(JSON.stringify(resolved)).toBe(resolvedText);
  });
});
