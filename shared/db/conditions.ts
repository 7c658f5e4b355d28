import { PK } from './table.ts';

/**
 * Condition and filter expressions, built from typed attribute names instead of strings:
 * `(w) => w.and(w.exists(), w.eq('revision', from), w.ne('editMode', 'locked'))`.
 * Placeholders (#n0, :v0, ...) are assigned when an operation renders them.
 */
export interface Condition {
  render(expr: ExpressionContext): string;
}

type Attr<Item> = Extract<keyof Item, string>;
/** Skipped by and/or, so optional parts read `flag && w.eq(...)`. */
type MaybeCondition = Condition | undefined | null | false | '' | 0;

export interface Where<Item> {
  /** The item exists (attribute_exists on the partition key). */
  exists(): Condition;
  /** No item has this key yet. */
  absent(): Condition;
  has(attr: Attr<Item>): Condition;
  lacks(attr: Attr<Item>): Condition;
  /** The attribute holds null (attribute_type NULL). */
  isNull(attr: Attr<Item>): Condition;
  eq<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  ne<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  lt<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  le<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  gt<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  ge<K extends Attr<Item>>(attr: K, value: NonNullable<Item[K]>): Condition;
  /** A map attribute has an entry under `key` (attribute_exists(attr.key)). */
  hasEntry(attr: Attr<Item>, key: string): Condition;
  /** The attribute equals one of the values (at most 100). */
  in<K extends Attr<Item>>(attr: K, values: NonNullable<Item[K]>[]): Condition;
  /** A substring of a string attribute, or an element of a list/set attribute. */
  contains(attr: Attr<Item>, value: unknown): Condition;
  beginsWith(attr: Attr<Item>, prefix: string): Condition;
  and(...conditions: MaybeCondition[]): Condition;
  or(...conditions: MaybeCondition[]): Condition;
  not(condition: Condition): Condition;
}

export type WhereFn<Item> = (w: Where<Item>) => Condition;

/** Collects expression attribute names and values while expressions render. */
export class ExpressionContext {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly nameIds = new Map<string, string>();
  private valueCount = 0;

  name(attr: string): string {
    let id = this.nameIds.get(attr);
    if (!id) {
      id = `#n${this.nameIds.size}`;
      this.nameIds.set(attr, id);
      this.names[id] = attr;
    }
    return id;
  }

  value(value: unknown): string {
    const id = `:v${this.valueCount++}`;
    this.values[id] = value;
    return id;
  }

  /** Names and values for a command (DynamoDB refuses empty maps). */
  attributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    return {
      ...(this.nameIds.size ? { ExpressionAttributeNames: this.names } : {}),
      ...(this.valueCount ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

const condition = (render: (expr: ExpressionContext) => string): Condition => ({ render });

const compare = (op: string) => (attr: string, value: unknown) =>
  condition((e) => `${e.name(attr)} ${op} ${e.value(value)}`);

const join = (op: 'AND' | 'OR', parts: MaybeCondition[]) => {
  const present = parts.filter((p): p is Condition => Boolean(p));
  return condition((e) => present.length === 1 ? present[0]!.render(e) : `(${present.map((p) => p.render(e)).join(` ${op} `)})`);
};

/** The builder handed to `WhereFn`s; attribute names are checked against the item type. */
export function where<Item>(): Where<Item> {
  return {
    exists: () => condition((e) => `attribute_exists(${e.name(PK)})`),
    absent: () => condition((e) => `attribute_not_exists(${e.name(PK)})`),
    has: (attr) => condition((e) => `attribute_exists(${e.name(attr)})`),
    lacks: (attr) => condition((e) => `attribute_not_exists(${e.name(attr)})`),
    isNull: (attr) => condition((e) => `attribute_type(${e.name(attr)}, ${e.value('NULL')})`),
    eq: compare('='),
    ne: compare('<>'),
    lt: compare('<'),
    le: compare('<='),
    gt: compare('>'),
    ge: compare('>='),
    hasEntry: (attr, key) => condition((e) => `attribute_exists(${e.name(attr)}.${e.name(key)})`),
    in: (attr, values) => condition((e) => `${e.name(attr)} IN (${values.map((v) => e.value(v)).join(', ')})`),
    contains: (attr, value) => condition((e) => `contains(${e.name(attr)}, ${e.value(value)})`),
    beginsWith: (attr, prefix) => condition((e) => `begins_with(${e.name(attr)}, ${e.value(prefix)})`),
    and: (...parts) => join('AND', parts),
    or: (...parts) => join('OR', parts),
    not: (c) => condition((e) => `NOT (${c.render(e)})`),
  };
}

/** Several conditions that must all hold (undefined entries are skipped). */
export function allOf(...conditions: (Condition | undefined)[]): Condition | undefined {
  const present = conditions.filter((c): c is Condition => c !== undefined);
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : join('AND', present);
}
