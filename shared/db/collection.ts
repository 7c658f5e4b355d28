import { queryAll } from './operations.ts';
import type { IndexName } from './table.ts';

/** What a collection needs of a member entity. */
interface Member<Item> {
  owns(record: Record<string, unknown>): boolean;
  fromRecord(record: Record<string, unknown>): Item;
}

type ItemsOf<M> = { [K in keyof M]: M[K] extends Member<infer Item> ? Item[] : never };
/** One item of a collection in sort key order, tagged with its member name. */
type TaggedOf<M> = { [K in keyof M]: M[K] extends Member<infer Item> ? { member: K; item: Item } : never }[keyof M];

/**
 * Several entities that live in one partition and are read together (ElectroDB calls this
 * a collection): one Query returns each member's items, sorted by sort key.
 *   export const siteContents = defineCollection({ pk: (a: { siteId: string }) => `SITE#${a.siteId}`, members: { site: siteEntity, ... } });
 *   const { site: [site], siteSpaces } = await siteContents.read({ siteId });
 *   await purge(siteContents, { siteId });   // shared/db/writes.ts
 */
export function defineCollection<Args, M extends Record<string, Member<unknown>>>(definition: {
  pk: (args: Args) => string;
  members: M;
  /** A secondary index partition the members share (the table's own partition when absent). */
  index?: IndexName;
}) {
  const records = (args: Args) => queryAll({ index: definition.index, partition: definition.pk(args) });
  return {
    /** The secondary index the members share (undefined: the table's own partition). */
    index: definition.index,
    /** Every record of the partition, of any type (purge() in writes.ts deletes them). */
    records,
    /** Every member's items, in sort key order within each member. */
    async read(args: Args): Promise<ItemsOf<M>> {
      const all = await records(args);
      const out: Record<string, unknown[]> = {};
      for (const [name, member] of Object.entries(definition.members)) {
        out[name] = all.filter((r) => member.owns(r)).map((r) => member.fromRecord(r));
      }
      return out as ItemsOf<M>;
    },
    /** Every item of any member, in the partition's sort key order. */
    async readInOrder(args: Args): Promise<TaggedOf<M>[]> {
      const members = Object.entries(definition.members);
      return (await records(args)).flatMap((r) => {
        const found = members.find(([, member]) => member.owns(r));
        return found ? [{ member: found[0], item: found[1].fromRecord(r) } as TaggedOf<M>] : [];
      });
    },
  };
}
