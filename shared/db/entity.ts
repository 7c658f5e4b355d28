import { ENTITY_TYPE, PK, SK, storageAttributes, indexes, type Key, type IndexName } from './table.ts';
import { config } from '../config.ts';
import { ExpressionContext, where, allOf, type Condition, type Where, type WhereFn } from './conditions.ts';
import { declareWrite as write, type TransactItem, type Write } from './write.ts';
import { getRecord, queryAll, queryPage, type StoredRecord } from './operations.ts';

/**
 * An entity declares its storage layout and its access patterns in one place
 * (shared/db/entities/*.ts); nothing outside shared/db writes a key, a table name or an
 * expression. Declare:
 *
 *   export const changeRequestEntity = defineEntity<ChangeRequestItem>()({
 *     type: 'change-request',
 *     key: (a: { spaceId: string; changeRequestId: string }) => ({ pk: `SPACE#${a.spaceId}`, sk: `CR#${a.changeRequestId}` }),
 *     indexes: {            // index entries each item carries; each is also a named query
 *       bySpace: { index: 'gsi2', pk: (a: { spaceId: string }) => `SPACE#${a.spaceId}#CHANGE_REQUESTS`, sk: (cr) => paddedNumber(cr.number) },
 *     },
 *     partitions: {         // queries on the table's own keys: a partition and a sort key prefix
 *       inSpace: (a: { spaceId: string }) => ({ pk: `SPACE#${a.spaceId}`, prefix: 'CR#' }),
 *     },
 *   });
 *
 * Use:
 *   await changeRequestEntity.get({ spaceId, changeRequestId }, { consistent: true });
 *   const { items, next } = await changeRequestEntity.query.bySpace({ spaceId }, { forward: false }).page({ limit, cursor });
 *   await changeRequestEntity.query.inSpace({ spaceId }, { where: (w) => w.eq('status', 'open') }).all();
 *   await run(changeRequestEntity.create(keyArgs, item));                  // AlreadyExists when present
 *   await run(spaceEntity.replace(keyArgs, next, (w) => w.eq('updatedAt', previous.updatedAt))); // replace-if-unchanged
 *   await run(spaceEntity.update(keyArgs, { set: { title }, add: { comments: 1 }, if: (w) => w.ne('editMode', 'locked') }));
 *   await run(spaceEntity.add(keyArgs, { comments: -1 }));                 // counter (item must exist)
 *   await transact([a.create(...), b.add(...), c.check(args, (w) => w.exists())], (index, error) => conflict('...'));
 * Writes are descriptions (shared/db/write.ts): `run` and `transact` (shared/db/writes.ts)
 * execute them, so a module that only reads bundles no write command.
 * Failures are typed (shared/db/errors.ts): ConditionFailed (its `item` is the record as it
 * was), AlreadyExists, NotFound (single writes on a missing item), TransactionConflict.
 */

/** A secondary index entry the item carries; also a named query on that index. */
export interface IndexPattern<Item, Args> {
  index: IndexName;
  pk: (args: Args) => string;
  sk: (item: Item) => string;
  /** The pk arguments of an item, when they are not plain item attributes. */
  from?: (item: Item) => Args;
  /** Sparse: the entry exists only while this holds (removed from the item otherwise). */
  when?: (item: Item) => boolean;
  /** The query reads only sort keys with this prefix. */
  prefix?: string;
  /** Other entity types share the partition: the query filters on this entity's type. */
  sharedPartition?: boolean;
}

/** A query on the table's own keys: a partition and an optional sort key prefix. */
export type PartitionPattern<Args> = (args: Args) => { pk: string; prefix?: string; sharedPartition?: boolean };

export interface EntityDefinition<Item> {
  type: string;
  key: (args: never) => Key;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each pattern declares its own argument type
  indexes?: Record<string, IndexPattern<Item, any>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  partitions?: Record<string, PartitionPattern<any>>;
}

type ArgsOf<F> = F extends (args: infer A) => unknown ? A : never;
type KeyArgsOf<D> = D extends { key: (args: infer A) => Key } ? A : never;
type Patterns<D> = (D extends { indexes: infer I } ? { [K in keyof I]: I[K] extends { pk: infer P } ? ArgsOf<P> : never } : unknown)
  & (D extends { partitions: infer P } ? { [K in keyof P]: ArgsOf<P[K]> } : unknown);
type ListAttr<Item> = { [K in keyof Item]-?: NonNullable<Item[K]> extends unknown[] ? K : never }[keyof Item] & string;
type NumberAttr<Item> = { [K in keyof Item]-?: NonNullable<Item[K]> extends number ? K : never }[keyof Item] & string;

export interface QueryOptions<Item> {
  /** Descending sort key order when false. */
  forward?: boolean;
  /** A filter on the query (undefined: none). */
  where?: (w: Where<Item>) => Condition | undefined;
}

export interface Query<Item> {
  /** One page; `next` is the opaque cursor of the following page (shared/http/cursor.ts). */
  page(options: { limit: number; cursor?: string }): Promise<{ items: Item[]; next?: string }>;
  /** Every item (internal use: purges, moves, small bounded lists). */
  all(): Promise<Item[]>;
}

export interface Update<Item> {
  set?: Partial<Item>;
  /** Atomic ADD to number attributes (negative to subtract). */
  add?: Partial<Record<NumberAttr<Item>, number>>;
  remove?: Extract<keyof Item, string>[];
  /** Elements appended to list attributes (the list is created when absent). */
  append?: Partial<Record<ListAttr<Item>, unknown[]>>;
  /** Further condition; the item must exist unless `upsert`. */
  if?: WhereFn<Item>;
  /** The whole item after the change: its index entries are rewritten from it. */
  reindex?: Item;
  /** Creates the item when absent (SET only what is given, plus its entity type). */
  upsert?: boolean;
}

export interface Entity<Item, KeyArgs, P> {
  type: string;
  key(args: KeyArgs): Key;
  /** Stored record: the item plus key, entity type and index attributes. */
  toRecord(args: KeyArgs, item: Item): Record<string, unknown>;
  /** Domain item from a stored record, storage attributes removed. */
  fromRecord(record: Record<string, unknown>): Item;
  /** Index attributes of an item: what to SET and what to REMOVE. */
  indexAttributes(item: Item): { set: Record<string, string>; remove: string[] };
  /** Whether a stored record is of this entity. */
  owns(record: Record<string, unknown>): boolean;

  get(args: KeyArgs, options?: { consistent?: boolean }): Promise<Item | undefined>;
  /** The named queries: `entity.query.bySpace({ spaceId }).page({ limit, cursor })`. */
  query: { [K in keyof P]: (args: P[K], options?: QueryOptions<Item>) => Query<Item> };

  /** Create-if-absent (AlreadyExists otherwise). */
  create(args: KeyArgs, item: Item): Write;
  /** Unconditional put, or conditional with `condition`. */
  put(args: KeyArgs, item: Item, condition?: WhereFn<Item>): Write;
  /** Replace an existing item on a condition, typically that it is unchanged since read. */
  replace(args: KeyArgs, item: Item, unchanged: WhereFn<Item>): Write;
  update(args: KeyArgs, update: Update<Item>): Write<Item>;
  /** Counters: atomic ADD on an existing item. */
  add(args: KeyArgs, deltas: Partial<Record<NumberAttr<Item>, number>>, condition?: WhereFn<Item>): Write<Item>;
  /** Resolves to the deleted item (undefined when there was none). */
  delete(args: KeyArgs, condition?: WhereFn<Item>): Write<Item | undefined>;
  /** A condition on another item of a transaction (transact() only). */
  check(args: KeyArgs, condition: WhereFn<Item>): Write<never>;
}

/**
 * Declares an entity (see above). Curried so that the item type is given and the key and
 * pattern argument types are inferred from the declaration.
 */
export function defineEntity<Item extends object>() {
  return <D extends EntityDefinition<Item>>(definition: D): Entity<Item, KeyArgsOf<D>, Patterns<D>> => build<Item, KeyArgsOf<D>, Patterns<D>>(definition);
}

function build<Item extends object, KeyArgs, P>(definition: EntityDefinition<Item>): Entity<Item, KeyArgs, P> {
  const keyOf = definition.key as unknown as (args: KeyArgs) => Key;
  const indexPatterns = Object.values(definition.indexes ?? {}) as IndexPattern<Item, Item>[];
  const w = where<Item>();
  const cond = (fn: WhereFn<Item> | undefined) => fn?.(w);

  const indexAttributes = (item: Item) => {
    const set: Record<string, string> = {};
    const remove: string[] = [];
    for (const pattern of indexPatterns) {
      const attrs = indexes[pattern.index];
      if (pattern.when && !pattern.when(item)) {
        remove.push(attrs.pk, attrs.sk);
      } else {
        set[attrs.pk] = pattern.pk(pattern.from ? pattern.from(item) : item);
        set[attrs.sk] = pattern.sk(item);
      }
    }
    return { set, remove };
  };
  const toRecord = (args: KeyArgs, item: Item) => {
    const key = keyOf(args);
    return { ...item, [PK]: key.pk, [SK]: key.sk, [ENTITY_TYPE]: definition.type, ...indexAttributes(item).set };
  };
  const fromRecord = (record: Record<string, unknown>) => stripStorage(record) as Item;
  const decode = (record: Record<string, unknown> | undefined) => (record ? fromRecord(record) : undefined);

  const put = (args: KeyArgs, item: Item, condition: Condition | undefined, createOnly: boolean): Write => {
    const expr = new ExpressionContext();
    const rendered = condition?.render(expr);
    return write({
      Put: {
        TableName: config.tableName, Item: toRecord(args, item),
        ...(rendered ? { ConditionExpression: rendered, ...expr.attributes() } : {}),
      },
    }, createOnly, () => undefined);
  };

  const update = (args: KeyArgs, u: Update<Item>): Write<Item> => {
    const expr = new ExpressionContext();
    const sets: string[] = [];
    const removes: string[] = [];
    const set: Record<string, unknown> = { ...u.set };
    if (u.upsert) set[ENTITY_TYPE] = definition.type;
    if (u.reindex) {
      const attrs = indexAttributes(u.reindex);
      Object.assign(set, attrs.set);
      removes.push(...attrs.remove.map((a) => expr.name(a)));
    }
    for (const [attr, value] of Object.entries(set)) {
      if (value !== undefined) sets.push(`${expr.name(attr)} = ${expr.value(value)}`);
    }
    for (const [attr, elements] of Object.entries(u.append ?? {})) {
      const name = expr.name(attr);
      sets.push(`${name} = list_append(if_not_exists(${name}, ${expr.value([])}), ${expr.value(elements)})`);
    }
    for (const attr of u.remove ?? []) removes.push(expr.name(attr));
    const adds = Object.entries(u.add ?? {}).map(([attr, delta]) => `${expr.name(attr)} ${expr.value(delta)}`);
    const clauses = [
      sets.length ? `SET ${sets.join(', ')}` : '',
      adds.length ? `ADD ${adds.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ].filter(Boolean);
    const condition = allOf(u.upsert ? undefined : w.exists(), cond(u.if))?.render(expr);
    return write({
      Update: {
        TableName: config.tableName, Key: keyOf(args), UpdateExpression: clauses.join(' '),
        ...(condition ? { ConditionExpression: condition } : {}), ...expr.attributes(),
      },
    }, false, (out) => fromRecord(out ?? {}));
  };

  const conditional = (kind: 'Delete' | 'ConditionCheck', args: KeyArgs, condition: Condition | undefined): TransactItem => {
    const expr = new ExpressionContext();
    const rendered = condition?.render(expr);
    return { [kind]: { TableName: config.tableName, Key: keyOf(args), ...(rendered ? { ConditionExpression: rendered, ...expr.attributes() } : {}) } } as TransactItem;
  };

  const query = (pk: string, index: IndexName | undefined, prefix: string | undefined, sharedPartition: boolean | undefined, options: QueryOptions<Item> = {}): Query<Item> => {
    const filterCondition = allOf(
      sharedPartition ? { render: (e) => `${e.name(ENTITY_TYPE)} = ${e.value(definition.type)}` } : undefined,
      options.where?.(w),
    );
    const base = () => {
      if (!filterCondition) return { index, partition: pk, prefix, forward: options.forward };
      const expr = new ExpressionContext();
      const expression = filterCondition.render(expr);
      return { index, partition: pk, prefix, forward: options.forward, filter: { expression, names: expr.names, values: expr.values } };
    };
    return {
      async page({ limit, cursor }) {
        const out = await queryPage({ ...base(), limit, cursor });
        return { items: out.records.map(fromRecord), ...(out.next ? { next: out.next } : {}) };
      },
      async all() {
        return (await queryAll(base())).map(fromRecord);
      },
    };
  };

  const queries: Record<string, (args: unknown, options?: QueryOptions<Item>) => Query<Item>> = {};
  for (const [name, pattern] of Object.entries(definition.indexes ?? {}) as [string, IndexPattern<Item, unknown>][]) {
    queries[name] = (args, options) => query(pattern.pk(args), pattern.index, pattern.prefix, pattern.sharedPartition, options);
  }
  for (const [name, pattern] of Object.entries(definition.partitions ?? {}) as [string, PartitionPattern<unknown>][]) {
    queries[name] = (args, options) => {
      const p = pattern(args);
      return query(p.pk, undefined, p.prefix, p.sharedPartition, options);
    };
  }

  return {
    type: definition.type,
    key: keyOf,
    toRecord,
    fromRecord,
    indexAttributes,
    owns: (record) => record[ENTITY_TYPE] === definition.type,
    async get(args, options) {
      return decode(await getRecord(keyOf(args), options?.consistent ?? false));
    },
    query: queries as Entity<Item, KeyArgs, P>['query'],
    create: (args, item) => put(args, item, w.absent(), true),
    put: (args, item, condition) => put(args, item, cond(condition), false),
    replace: (args, item, unchanged) => put(args, item, allOf(w.exists(), unchanged(w)), false),
    update,
    add: (args, deltas, condition) => update(args, { add: deltas, if: condition }),
    delete: (args, condition) => {
      const item = conditional('Delete', args, cond(condition));
      return write(item, false, decode);
    },
    check: (args, condition) => write(conditional('ConditionCheck', args, condition(w)), false, () => undefined as never),
  };
}

/** Removes keys, index attributes and type from a stored record. */
export function stripStorage(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const attr of storageAttributes) delete out[attr];
  return out;
}

export function keyString(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}

export type { StoredRecord };
