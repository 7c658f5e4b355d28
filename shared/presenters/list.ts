/** The list envelope of spec 2.1 item 2: `next` only when another page exists. */
export function presentList<T>(items: T[], next: string | undefined) {
  return { items, count: items.length, ...(next ? { next: { page: next } } : {}) };
}
