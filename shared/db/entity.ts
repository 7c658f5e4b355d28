import { ENTITY_TYPE, PK, SK, storageAttributes, indexes, type Key, type IndexName } from './table.ts';

type IndexKeys = Partial<Record<IndexName, { pk: string; sk: string } | null>>;

/**
 * Declares one entity: its item type name, how its primary key is built and which
 * secondary index entries it carries. The declaration is the only place where an
 * entity's storage layout is written; everything else goes through it.
 */
export interface EntityDefinition<Item, KeyArgs> {
  type: string;
  key(args: KeyArgs): Key;
  /** Secondary index keys derived from the item; null removes the entry (sparse index). */
  indexes?(item: Item): IndexKeys;
}

export interface Entity<Item, KeyArgs> extends EntityDefinition<Item, KeyArgs> {
  /** Stored record: the item plus key, entity type and index attributes. */
  toRecord(args: KeyArgs, item: Item): Record<string, unknown>;
  /** Domain item from a stored record, storage attributes removed. */
  fromRecord(record: Record<string, unknown>): Item;
  /** Index attributes for an UpdateExpression: what to SET and what to REMOVE. */
  indexAttributes(item: Item): { set: Record<string, string>; remove: string[] };
}

export function defineEntity<Item extends object, KeyArgs>(
  definition: EntityDefinition<Item, KeyArgs>,
): Entity<Item, KeyArgs> {
  const indexAttributes = (item: Item) => {
    const set: Record<string, string> = {};
    const remove: string[] = [];
    const entries = definition.indexes?.(item) ?? {};
    for (const name of Object.keys(entries) as IndexName[]) {
      const value = entries[name];
      const attrs = indexes[name];
      if (value) {
        set[attrs.pk] = value.pk;
        set[attrs.sk] = value.sk;
      } else {
        remove.push(attrs.pk, attrs.sk);
      }
    }
    return { set, remove };
  };
  return {
    ...definition,
    indexAttributes,
    toRecord(args, item) {
      const key = definition.key(args);
      return { ...item, [PK]: key.pk, [SK]: key.sk, [ENTITY_TYPE]: definition.type, ...indexAttributes(item).set };
    },
    fromRecord(record) {
      return stripStorage(record) as Item;
    },
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
