import { diff3Merge } from 'node-diff3';
import type { Manifest, ManifestPage, StoredDocument } from '../types.ts';
import { contentHashOf, getJsonBlob, putJsonBlob } from '../blobs.ts';
import { mergeDocuments } from './documents.ts';

/** A page both sides changed in ways that cannot be combined. */
export interface PageConflict {
  page: string;
  title: string;
  reason: string;
  fields?: string[];
  blocks?: { ours: string[]; theirs: string[]; base: string[] };
}

export interface ManifestMerge {
  manifest: Manifest;
  conflicts: PageConflict[];
}

type PageFields = Omit<ManifestPage, 'pages'>;
interface FlatPage {
  fields: PageFields;
  parent: string | null;
}

/** Every page by id, with its parent, and each parent's ordered children. */
function flatten(manifest: Manifest) {
  const pages = new Map<string, FlatPage>();
  const children = new Map<string | null, string[]>();
  const visit = (list: ManifestPage[], parent: string | null) => {
    children.set(parent, list.map((p) => p.id));
    for (const page of list) {
      const { pages: sub, ...fields } = page;
      pages.set(page.id, { fields, parent });
      visit(sub, page.id);
    }
  };
  visit(manifest.pages, null);
  return { pages, children };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** Fields compared three-way; timestamps follow the content they describe. */
const ignored = new Set(['createdAt', 'updatedAt']);

/**
 * Three-way merge of page trees. `ours` and `theirs` both descend from `base`. Pages added,
 * removed, moved and edited on either side are combined page by page, then block by block
 * inside documents edited on both sides; what cannot be combined is returned as conflicts,
 * never dropped. Ties in ordering keep `ours` first.
 */
export async function mergeManifests(base: Manifest, ours: Manifest, theirs: Manifest): Promise<ManifestMerge> {
  const [B, O, T] = [flatten(base), flatten(ours), flatten(theirs)];
  const conflicts: PageConflict[] = [];
  const result = new Map<string, FlatPage>();
  const ids = new Set([...O.pages.keys(), ...T.pages.keys(), ...B.pages.keys()]);

  for (const id of ids) {
    const b = B.pages.get(id);
    const o = O.pages.get(id);
    const t = T.pages.get(id);
    if (!b) {
      if (o && t && !same(o, t)) conflicts.push({ page: id, title: o.fields.title, reason: 'added on both sides with different content' });
      else if (o ?? t) result.set(id, (o ?? t)!);
      continue;
    }
    if (!o && !t) continue;
    if (!o || !t) {
      const kept = (o ?? t)!;
      if (unchanged(kept, b)) continue; // deleted on one side, untouched on the other
      conflicts.push({ page: id, title: kept.fields.title, reason: o ? 'edited in one version and deleted in the other' : 'deleted in one version and edited in the other' });
      continue;
    }
    const merged = await mergePage(b, o, t);
    if ('conflict' in merged) conflicts.push({ page: id, title: o.fields.title, ...merged.conflict });
    else result.set(id, merged.page);
  }

  // A page kept under a parent that the other side deleted has nowhere to go.
  for (const [id, page] of result) {
    if (page.parent && !result.has(page.parent) && !conflicts.some((c) => c.page === page.parent)) {
      conflicts.push({ page: id, title: page.fields.title, reason: 'its parent page was deleted in the other version' });
      result.delete(id);
    }
  }

  conflicts.push(...parentCycles(result, conflicts));
  conflicts.push(...slugClashes(result, O.pages, T.pages, conflicts));

  const manifest: Manifest = {
    pages: buildTree(null, result, B.children, O.children, T.children),
    files: mergeById(base.files, ours.files, theirs.files),
    reusableContents: mergeById(base.reusableContents, ours.reusableContents, theirs.reusableContents),
    variables: mergeVariables(base.variables, ours.variables, theirs.variables, conflicts),
  };
  return { manifest, conflicts };
}

/**
 * Pages each side moved under the other (A into B in one version, B into A in the other)
 * would hang from each other, out of the tree with everything below them: a conflict on
 * their parents.
 */
function parentCycles(result: Map<string, FlatPage>, known: PageConflict[]): PageConflict[] {
  const rooted = new Set<string>();
  const onCycle = new Set<string>();
  for (const start of result.keys()) {
    const path: string[] = [];
    let id: string | null = start;
    while (id !== null && result.has(id) && !rooted.has(id) && !onCycle.has(id) && !path.includes(id)) {
      path.push(id);
      id = result.get(id)!.parent;
    }
    if (id !== null && path.includes(id)) path.slice(path.indexOf(id)).forEach((p) => onCycle.add(p));
    else if (id === null || rooted.has(id)) path.forEach((p) => rooted.add(p));
  }
  return [...onCycle].filter((id) => !known.some((c) => c.page === id)).map((id) => ({
    page: id, title: result.get(id)!.fields.title, reason: 'moved under each other in the two versions', fields: ['parent'],
  }));
}

/**
 * A page's path names it, so sibling slugs are unique (edits refuse a taken slug, 409): pages
 * each side put under one parent with one slug (two "FAQ" pages added, a rename, a move) are
 * a conflict. Pages that already shared a slug on one side (a Git import's) are left as they are.
 */
function slugClashes(result: Map<string, FlatPage>, ours: Map<string, FlatPage>, theirs: Map<string, FlatPage>, known: PageConflict[]): PageConflict[] {
  const where = (page: FlatPage | undefined) => (page ? `${page.parent ?? ''}/${page.fields.slug}` : undefined);
  const bySlot = new Map<string, string[]>();
  for (const [id, page] of result) {
    const slot = `${page.parent ?? ''}/${page.fields.slug}`;
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), id]);
  }
  const clashes: PageConflict[] = [];
  for (const [slot, ids] of bySlot) {
    if (ids.length < 2) continue;
    const already = (side: Map<string, FlatPage>) => ids.every((id) => where(side.get(id)) === slot);
    if (already(ours) || already(theirs)) continue;
    for (const id of ids) {
      if (known.some((c) => c.page === id)) continue;
      const { title, slug } = result.get(id)!.fields;
      clashes.push({ page: id, title, reason: `sibling pages have the same slug "${slug}"`, fields: ['slug'] });
    }
  }
  return clashes;
}

function unchanged(page: FlatPage, base: FlatPage): boolean {
  return page.parent === base.parent && Object.keys({ ...page.fields, ...base.fields })
    .every((k) => ignored.has(k) || same(page.fields[k as keyof PageFields], base.fields[k as keyof PageFields]));
}

async function mergePage(b: FlatPage, o: FlatPage, t: FlatPage): Promise<{ page: FlatPage } | { conflict: Omit<PageConflict, 'page' | 'title'> }> {
  const fields = { ...o.fields } as Record<string, unknown>;
  const clashing: string[] = [];
  const keys = new Set([...Object.keys(b.fields), ...Object.keys(o.fields), ...Object.keys(t.fields)]);
  for (const key of keys) {
    if (ignored.has(key) || key === 'document') continue;
    const [bv, ov, tv] = [b.fields, o.fields, t.fields].map((f) => (f as Record<string, unknown>)[key]);
    if (same(ov, bv)) {
      if (tv === undefined) delete fields[key];
      else fields[key] = tv;
    } else if (!same(tv, bv) && !same(ov, tv)) clashing.push(key);
  }
  let parent = o.parent;
  if (o.parent === b.parent) parent = t.parent;
  else if (t.parent !== b.parent && t.parent !== o.parent) clashing.push('parent');
  if (clashing.length > 0) return { conflict: { reason: 'the same properties changed differently on both sides', fields: clashing } };

  const [bd, od, td] = [b.fields.document, o.fields.document, t.fields.document];
  // Equal content is the same document, wherever it is stored (its own blob or a pack).
  const [bh, oh, th] = [bd, od, td].map((ref) => (ref ? contentHashOf(ref) : ref));
  if (oh === bh) fields.document = td;
  else if (th !== bh && th !== oh) {
    const load = (hash: string | undefined) => (hash ? getJsonBlob<StoredDocument>(hash) : Promise.resolve({ object: 'document', data: {}, nodes: [] } as StoredDocument));
    const merged = mergeDocuments(await load(bd), await load(od), await load(td));
    if (!merged.ok) return { conflict: { reason: 'the same blocks of the document changed differently on both sides', blocks: merged.blocks } };
    fields.document = await putJsonBlob(merged.document);
  }
  const changed = !same(fields, o.fields) || parent !== o.parent;
  const updatedAt = [o.fields.updatedAt, t.fields.updatedAt].sort().at(-1)!;
  return { page: { fields: { ...(fields as PageFields), updatedAt: changed ? updatedAt : o.fields.updatedAt }, parent } };
}

/** Children of `parent` in merged order: a three-way merge of each side's ordering. */
function buildTree(
  parent: string | null,
  pages: Map<string, FlatPage>,
  base: Map<string | null, string[]>,
  ours: Map<string | null, string[]>,
  theirs: Map<string | null, string[]>,
): ManifestPage[] {
  const order: string[] = [];
  for (const region of diff3Merge(ours.get(parent) ?? [], base.get(parent) ?? [], theirs.get(parent) ?? [])) {
    if ('ok' in region && region.ok) order.push(...region.ok);
    else if ('conflict' in region && region.conflict) order.push(...region.conflict.a, ...region.conflict.b);
  }
  // Pages moved here from another parent arrive after the ones ordered above.
  for (const [id, page] of pages) if (page.parent === parent) order.push(id);
  const seen = new Set<string>();
  return order
    .filter((id) => pages.get(id)?.parent === parent && !seen.has(id) && seen.add(id))
    .map((id) => ({ ...pages.get(id)!.fields, pages: buildTree(id, pages, base, ours, theirs) }) as ManifestPage);
}

/** Items identified by id and immutable (files, reusable contents): added or removed on either side. */
function mergeById<T extends { id: string }>(base: T[], ours: T[], theirs: T[]): T[] {
  const baseIds = new Set(base.map((i) => i.id));
  const theirIds = new Set(theirs.map((i) => i.id));
  const oursIds = new Set(ours.map((i) => i.id));
  const kept = ours.filter((i) => !baseIds.has(i.id) || theirIds.has(i.id));
  const added = theirs.filter((i) => !baseIds.has(i.id) && !oursIds.has(i.id));
  return [...kept.map((i) => theirs.find((x) => x.id === i.id && !same(x, base.find((y) => y.id === i.id))) ?? i), ...added];
}

function mergeVariables(base: Record<string, string>, ours: Record<string, string>, theirs: Record<string, string>, conflicts: PageConflict[]) {
  const out: Record<string, string> = {};
  for (const key of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    const value = o === b ? t : t === b || t === o ? o : undefined;
    if (o !== b && t !== b && o !== t) {
      conflicts.push({ page: '', title: `variable ${key}`, reason: 'the variable changed differently on both sides' });
      continue;
    }
    if (value !== undefined) out[key] = value;
  }
  return out;
}
