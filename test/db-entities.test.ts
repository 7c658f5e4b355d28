import { beforeAll, describe, expect, expectTypeOf, inject, it } from 'vitest';
import { resetDbClient } from '../shared/db/client.ts';
import { defineEntity } from '../shared/db/entity.ts';
import { run, transact } from '../shared/db/writes.ts';
import { AlreadyExists, ConditionFailed, NotFound, TransactionConflict } from '../shared/db/errors.ts';
import { getRecord } from '../shared/db/operations.ts';
import { randomId } from '../shared/ids.ts';

/** The entity layer against DynamoDB Local, with an entity of its own (no HTTP). */
interface NoteItem {
  id: string;
  bookId: string;
  title: string;
  status: 'draft' | 'final';
  views: number;
  pinnedAt?: string;
  updatedAt: string;
}

const noteEntity = defineEntity<NoteItem>()({
  type: 'test-note',
  key: (a: { bookId: string; noteId: string }) => ({ pk: `TESTBOOK#${a.bookId}`, sk: `NOTE#${a.noteId}` }),
  indexes: {
    byBook: { index: 'gsi1', pk: (a: { bookId: string }) => `TESTBOOK#${a.bookId}#NOTES`, sk: (n) => `${n.updatedAt}#${n.id}` },
    pinned: {
      index: 'gsi3', pk: (a: { bookId: string }) => `TESTBOOK#${a.bookId}#PINNED`, sk: (n) => `${n.pinnedAt}#${n.id}`, when: (n) => Boolean(n.pinnedAt),
    },
  },
  partitions: {
    inBook: (a: { bookId: string }) => ({ pk: `TESTBOOK#${a.bookId}`, prefix: 'NOTE#' }),
  },
});

function note(bookId: string, fields: Partial<NoteItem> = {}): NoteItem {
  return { id: randomId(), bookId, title: 'A note', status: 'draft', views: 0, updatedAt: new Date().toISOString(), ...fields };
}
const keyOf = (n: NoteItem) => ({ bookId: n.bookId, noteId: n.id });

beforeAll(() => {
  Object.assign(process.env, inject('awsEnv'));
  resetDbClient();
});

describe('create-if-absent', () => {
  it('creates once, then fails with AlreadyExists and leaves the first item', async () => {
    const first = note(randomId());
    await run(noteEntity.create(keyOf(first), first));
    const error = await run(noteEntity.create(keyOf(first), { ...first, title: 'Second' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AlreadyExists);
    expect((error as AlreadyExists).item?.title).toBe('A note');
    expect(await noteEntity.get(keyOf(first), { consistent: true })).toEqual(first);
  });

  it('stores key, type and index attributes; get strips them', async () => {
    const n = note(randomId());
    await run(noteEntity.create(keyOf(n), n));
    const record = await getRecord(noteEntity.key(keyOf(n)), true);
    expect(record).toMatchObject({ pk: `TESTBOOK#${n.bookId}`, sk: `NOTE#${n.id}`, entityType: 'test-note', gsi1pk: `TESTBOOK#${n.bookId}#NOTES` });
    expect(record).not.toHaveProperty('gsi3pk');
    // Read back as an item: every storage attribute gone, the item's own attributes in their order.
    const item = noteEntity.fromRecord(record!);
    expect(item).toEqual(n);
    expect(Object.keys(item)).toEqual(Object.keys(record!).filter((k) => !['pk', 'sk', 'entityType', 'gsi1pk', 'gsi1sk'].includes(k)));
    // An attribute named __proto__ stays data and leaves the item's prototype alone.
    const odd = noteEntity.fromRecord(JSON.parse(`{"pk":"P","sk":"S","entityType":"test-note","__proto__":{"polluted":true},"title":"t"}`)) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(Object.keys(odd)).toEqual(['__proto__', 'title']);
    expect((odd as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('in a transaction, names the failed write (AlreadyExists, index) and writes nothing', async () => {
    const bookId = randomId();
    const existing = note(bookId);
    await run(noteEntity.create(keyOf(existing), existing));
    const fresh = note(bookId);
    const error = await transact([noteEntity.create(keyOf(fresh), fresh), noteEntity.create(keyOf(existing), existing)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AlreadyExists);
    expect((error as AlreadyExists).index).toBe(1);
    expect(await noteEntity.get(keyOf(fresh), { consistent: true })).toBeUndefined();
    const mapped = await transact([noteEntity.create(keyOf(existing), existing)], (index) => new Error(`failed ${index}`)).catch((e: Error) => e.message);
    expect(mapped).toBe('failed 0');
  });
});

describe('replace-if-unchanged', () => {
  it('replaces when the read version still holds and refuses a stale one', async () => {
    const n = note(randomId(), { updatedAt: '2026-01-01T00:00:00.000Z' });
    await run(noteEntity.create(keyOf(n), n));
    const edited = { ...n, title: 'Edited', updatedAt: '2026-01-02T00:00:00.000Z' };
    await run(noteEntity.replace(keyOf(n), edited, (w) => w.eq('updatedAt', n.updatedAt)));
    const stale = run(noteEntity.replace(keyOf(n), { ...n, title: 'Stale' }, (w) => w.eq('updatedAt', n.updatedAt)));
    const error = await stale.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConditionFailed);
    expect(error).not.toBeInstanceOf(NotFound);
    expect((error as ConditionFailed).item?.title).toBe('Edited');
    expect(await noteEntity.get(keyOf(n), { consistent: true })).toEqual(edited);
  });

  it('fails with NotFound when there is nothing to replace (and creates nothing)', async () => {
    const n = note(randomId());
    await expect(run(noteEntity.replace(keyOf(n), n, (w) => w.eq('updatedAt', n.updatedAt)))).rejects.toBeInstanceOf(NotFound);
    await expect(run(noteEntity.update(keyOf(n), { set: { title: 'x' } }))).rejects.toBeInstanceOf(NotFound);
    expect(await noteEntity.get(keyOf(n), { consistent: true })).toBeUndefined();
  });
});

describe('counters and conditional updates', () => {
  it('keeps every increment of concurrent counter writes', async () => {
    const n = note(randomId());
    await run(noteEntity.create(keyOf(n), n));
    await Promise.all(Array.from({ length: 25 }, () => run(noteEntity.add(keyOf(n), { views: 1 }))));
    await Promise.all(Array.from({ length: 5 }, () => run(noteEntity.add(keyOf(n), { views: -1 }))));
    expect((await noteEntity.get(keyOf(n), { consistent: true }))?.views).toBe(20);
  });

  it('a counter on a missing item fails instead of creating a partial item', async () => {
    const n = note(randomId());
    await expect(run(noteEntity.add(keyOf(n), { views: 1 }))).rejects.toBeInstanceOf(NotFound);
    expect(await getRecord(noteEntity.key(keyOf(n)), true)).toBeUndefined();
  });

  it('a conditional update applies only while its condition holds; reindex keeps sparse entries right', async () => {
    const n = note(randomId());
    await run(noteEntity.create(keyOf(n), n));
    const pinned = { ...n, status: 'final' as const, pinnedAt: '2026-02-01T00:00:00.000Z' };
    const updated = await run(noteEntity.update(keyOf(n), {
      set: { status: 'final', pinnedAt: pinned.pinnedAt }, add: { views: 2 }, if: (w) => w.eq('status', 'draft'), reindex: pinned,
    }));
    expect(updated).toMatchObject({ status: 'final', views: 2, pinnedAt: pinned.pinnedAt });
    expect((await getRecord(noteEntity.key(keyOf(n)), true))?.gsi3pk).toBe(`TESTBOOK#${n.bookId}#PINNED`);
    await expect(run(noteEntity.update(keyOf(n), { set: { title: 'again' }, if: (w) => w.eq('status', 'draft') }))).rejects.toBeInstanceOf(ConditionFailed);
    const unpinned = { ...pinned, pinnedAt: undefined };
    await run(noteEntity.update(keyOf(n), { remove: ['pinnedAt'], reindex: unpinned }));
    const record = await getRecord(noteEntity.key(keyOf(n)), true);
    expect(record).not.toHaveProperty('gsi3pk');
    expect(record).not.toHaveProperty('pinnedAt');
  });

  it('two transactions on one item: the loser fails with a typed error, the winner applies', async () => {
    const n = note(randomId());
    await run(noteEntity.create(keyOf(n), n));
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => transact([
      noteEntity.update(keyOf(n), { set: { title: `t${i}`, updatedAt: `v${i}` }, if: (w) => w.eq('updatedAt', n.updatedAt) }),
    ])));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason instanceof ConditionFailed || r.reason instanceof TransactionConflict).toBe(true);
    }
  });

  it('delete returns the old item; a conditional delete refuses a changed item', async () => {
    const n = note(randomId());
    await run(noteEntity.create(keyOf(n), n));
    await expect(run(noteEntity.delete(keyOf(n), (w) => w.eq('status', 'final')))).rejects.toBeInstanceOf(ConditionFailed);
    expect(await run(noteEntity.delete(keyOf(n)))).toEqual(n);
    expect(await run(noteEntity.delete(keyOf(n)))).toBeUndefined();
  });
});

describe('named queries', () => {
  it('pages an index and a partition by name, with typed filters', async () => {
    const bookId = randomId();
    const notes = Array.from({ length: 5 }, (_, i) => note(bookId, { updatedAt: `2026-03-0${i + 1}T00:00:00.000Z`, status: i % 2 ? 'final' : 'draft' }));
    await transact(notes.map((n) => noteEntity.create(keyOf(n), n)));
    const other = note(randomId());
    await run(noteEntity.create(keyOf(other), other));

    const first = await noteEntity.query.byBook({ bookId }, { forward: false }).page({ limit: 2 });
    expect(first.items.map((n) => n.id)).toEqual([notes[4]!.id, notes[3]!.id]);
    const second = await noteEntity.query.byBook({ bookId }, { forward: false }).page({ limit: 2, cursor: first.next });
    expect(second.items.map((n) => n.id)).toEqual([notes[2]!.id, notes[1]!.id]);
    // A cursor belongs to its query: the same cursor on another book's query is refused.
    await expect(noteEntity.query.byBook({ bookId: other.bookId }).page({ limit: 2, cursor: first.next })).rejects.toThrow();

    const finals = await noteEntity.query.inBook({ bookId }, { where: (w) => w.eq('status', 'final') }).all();
    expect(finals.map((n) => n.id).sort()).toEqual([notes[1]!.id, notes[3]!.id].sort());
    expect(await noteEntity.query.pinned({ bookId }).all()).toEqual([]);
  });

  it('a pattern name or argument that is not declared does not compile', () => {
    expectTypeOf(noteEntity.query).toHaveProperty('byBook');
    expectTypeOf(noteEntity.query).not.toHaveProperty('byBok');
    expectTypeOf(noteEntity.query.byBook).parameter(0).toEqualTypeOf<{ bookId: string }>();
    // @ts-expect-error a typo'd pattern name is a compile error, not an empty page
    noteEntity.query.byBok;
    // @ts-expect-error the pattern's arguments are checked
    noteEntity.query.byBook({ book: 'x' });
    // @ts-expect-error conditions name item attributes only
    noteEntity.update({ bookId: 'b', noteId: 'n' }, { if: (w) => w.eq('titel', 'x') });
  });
});
