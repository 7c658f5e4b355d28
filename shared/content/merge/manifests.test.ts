import { describe, expect, it } from 'vitest';
import { mergeManifests } from './manifests.ts';
import { mergeDocuments } from './documents.ts';
import { emptyManifest, type Manifest, type ManifestPage, type StoredDocument } from '../types.ts';

/**
 * The three-way merge of page trees, without storage: documents are blob hashes that only one
 * side changes here (a document edited on both sides is read from the blob store; that path
 * runs over HTTP in test/merge.test.ts), and block-level merging is mergeDocuments, tested below.
 */
const at = '2024-01-01T00:00:00.000Z';
const later = '2024-02-01T00:00:00.000Z';

function page(id: string, fields: Partial<ManifestPage> = {}, pages: ManifestPage[] = []): ManifestPage {
  return { id, type: 'document', title: id.toUpperCase(), slug: id, createdAt: at, updatedAt: at, document: `doc-${id}`, ...fields, pages };
}
const manifest = (pages: ManifestPage[], extra: Partial<Manifest> = {}): Manifest => ({ ...emptyManifest(), pages, ...extra });
/** The tree as nested ids, e.g. ['a', ['b', ['c']]]. */
const shape = (pages: ManifestPage[]): unknown[] => pages.map((p) => (p.pages.length ? [p.id, shape(p.pages)] : p.id));

describe('mergeManifests', () => {
  const base = manifest([page('a'), page('b', {}, [page('c')]), page('d')]);

  it('returns the base unchanged when neither side changed', async () => {
    const { manifest: merged, conflicts } = await mergeManifests(base, base, base);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(base);
  });

  it('combines pages added, removed and edited on different sides, keeping ours first on ties', async () => {
    const ours = manifest([page('a', { title: 'Alpha' }), page('b', {}, [page('c')]), page('d'), page('o')]);
    const theirs = manifest([page('a'), page('b', {}, [page('c', { document: 'doc-c2', updatedAt: later })]), page('t')]);
    const { manifest: merged, conflicts } = await mergeManifests(base, ours, theirs);
    expect(conflicts).toEqual([]);
    // d deleted by theirs (untouched by ours), o and t added at the same place: ours first.
    expect(shape(merged.pages)).toEqual(['a', ['b', ['c']], 'o', 't']);
    expect(merged.pages[0]!.title).toBe('Alpha');
    const c = merged.pages[1]!.pages[0]!;
    expect(c.document).toBe('doc-c2');
    expect(c.updatedAt).toBe(later);
  });

  it('moves a page to the parent one side gave it, and orders siblings three-way', async () => {
    const ours = manifest([page('d'), page('a'), page('b', {}, [page('c')])]);
    const theirs = manifest([page('a'), page('b'), page('d', {}, [page('c')])]);
    const { manifest: merged, conflicts } = await mergeManifests(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(shape(merged.pages)).toEqual([['d', ['c']], 'a', 'b']);
  });

  it('combines different fields of one page, and reports the same field changed differently', async () => {
    const ours = manifest([page('a', { title: 'Ours', emoji: '1f600' }), page('b', {}, [page('c')]), page('d')]);
    const theirs = manifest([page('a', { slug: 'alpha' }), page('b', {}, [page('c')]), page('d', { hidden: true })]);
    const combined = await mergeManifests(base, ours, theirs);
    expect(combined.conflicts).toEqual([]);
    expect(combined.manifest.pages[0]).toMatchObject({ title: 'Ours', emoji: '1f600', slug: 'alpha' });
    expect(combined.manifest.pages[2]).toMatchObject({ id: 'd', hidden: true });

    const clash = manifest([page('a', { title: 'Theirs' }), page('b', {}, [page('c')]), page('d')]);
    const { conflicts, manifest: merged } = await mergeManifests(base, ours, clash);
    expect(conflicts).toEqual([{ page: 'a', title: 'Ours', reason: 'the same properties changed differently on both sides', fields: ['title'] }]);
    // A conflicting page is reported, never silently dropped or overwritten.
    expect(merged.pages.map((p) => p.id)).toEqual(['b', 'd']);
  });

  it('reports a page edited on one side and deleted on the other, both ways', async () => {
    const edited = manifest([page('a', { title: 'Edited' }), page('b', {}, [page('c')]), page('d')]);
    const deleted = manifest([page('b', {}, [page('c')]), page('d')]);
    expect((await mergeManifests(base, edited, deleted)).conflicts)
      .toEqual([{ page: 'a', title: 'Edited', reason: 'edited in one version and deleted in the other' }]);
    expect((await mergeManifests(base, deleted, edited)).conflicts)
      .toEqual([{ page: 'a', title: 'Edited', reason: 'deleted in one version and edited in the other' }]);
  });

  it('reports the same new page added differently, and a page left under a deleted parent', async () => {
    const ours = manifest([...base.pages, page('n', { title: 'One' })]);
    const theirs = manifest([...base.pages, page('n', { title: 'Two' })]);
    expect((await mergeManifests(base, ours, theirs)).conflicts)
      .toEqual([{ page: 'n', title: 'One', reason: 'added on both sides with different content' }]);
    // The same page added identically on both sides is simply there.
    expect(shape((await mergeManifests(base, ours, ours)).manifest.pages)).toEqual(['a', ['b', ['c']], 'd', 'n']);

    const withChild = manifest([page('a'), page('b', {}, [page('c'), page('e')]), page('d')]);
    const withoutB = manifest([page('a'), page('d')]);
    // Theirs deleted b with c (untouched by ours): ours' new child e has nowhere to go.
    const { conflicts, manifest: merged } = await mergeManifests(base, withChild, withoutB);
    expect(conflicts).toEqual([{ page: 'e', title: 'E', reason: 'its parent page was deleted in the other version' }]);
    expect(shape(merged.pages)).toEqual(['a', 'd']);
  });

  it('merges files and reusable contents by id, and variables key by key', async () => {
    const file = (id: string, name = id) => ({ id, name, contentType: 'text/plain', size: 1, blob: `blob-${id}` });
    const b = manifest([], { files: [file('f1'), file('f2')] as Manifest['files'], variables: { a: '1', b: '1', c: '1' } });
    const o = manifest([], { files: [file('f1'), file('f3')] as Manifest['files'], variables: { a: '2', b: '1', c: '1', o: 'x' } });
    const t = manifest([], { files: [file('f1', 'renamed'), file('f2'), file('f4')] as Manifest['files'], variables: { a: '1', b: '3', t: 'y' } });
    const { manifest: merged, conflicts } = await mergeManifests(b, o, t);
    expect(conflicts).toEqual([]);
    expect(merged.files.map((f) => [f.id, f.name])).toEqual([['f1', 'renamed'], ['f3', 'f3'], ['f4', 'f4']]);
    expect(merged.variables).toEqual({ a: '2', b: '3', o: 'x', t: 'y' });

    const clash = manifest([], { variables: { a: '3', b: '1', c: '1' } });
    expect((await mergeManifests(b, o, clash)).conflicts)
      .toEqual([{ page: '', title: 'variable a', reason: 'the variable changed differently on both sides' }]);
  });
});

describe('mergeDocuments', () => {
  const block = (key: string) => ({ object: 'block', type: 'paragraph', key, nodes: [] });
  const doc = (...keys: string[]): StoredDocument => ({ object: 'document', data: {}, nodes: keys.map(block) } as StoredDocument);
  const keys = (d: StoredDocument) => (d.nodes as { key: string }[]).map((n) => n.key);

  it('combines edits to different blocks', () => {
    const merged = mergeDocuments(doc('a', 'b', 'c'), doc('a2', 'b', 'c'), doc('a', 'b', 'c', 'd'));
    expect(merged.ok).toBe(true);
    expect(merged.ok && keys(merged.document)).toEqual(['a2', 'b', 'c', 'd']);
  });

  it('reports the blocks of a stretch both sides changed differently', () => {
    expect(mergeDocuments(doc('a', 'b', 'c'), doc('a', 'x', 'c'), doc('a', 'y', 'c')))
      .toEqual({ ok: false, blocks: { ours: ['x'], base: ['b'], theirs: ['y'] } });
  });

  it('matches blocks without a key by their content', () => {
    const plain = { object: 'block', type: 'divider', nodes: [] };
    const base = { object: 'document', data: {}, nodes: [plain, block('b')] } as StoredDocument;
    const ours = { object: 'document', data: {}, nodes: [plain, block('b2')] } as StoredDocument;
    const merged = mergeDocuments(base, ours, base);
    expect(merged.ok && merged.document.nodes).toEqual([plain, block('b2')]);
  });
});
