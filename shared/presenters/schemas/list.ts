import * as v from 'valibot';

/**
 * The list envelope of spec 2.1 item 2 around any item schema: `items`, `count`, and
 * `next.page` only when another page exists (shared/presenters/list.ts builds it).
 */
export function listSchema<TItem extends v.GenericSchema>(item: TItem) {
  return v.object({
    items: v.array(item),
    count: v.optional(v.pipe(v.number(), v.integer())),
    next: v.optional(v.object({ page: v.string() })),
  });
}

export type ListOutput<TItem extends v.GenericSchema> = v.InferOutput<ReturnType<typeof listSchema<TItem>>>;
