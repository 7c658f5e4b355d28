import { openCursor, sealCursor } from './cursor.ts';

/**
 * One page of a list that is already in memory (a revision's files, members sorted by
 * name). The cursor seals an offset for `scope` (what was listed), so a cursor from
 * another list, or an edited one, is refused (shared/http/cursor.ts).
 */
export function pageOfArray<T>(items: T[], options: { limit: number; cursor?: string; scope: string }): { items: T[]; next?: string } {
  const scope = `array:${options.scope}`;
  const offset = offsetOf(options);
  const end = offset + options.limit;
  return {
    items: items.slice(offset, end),
    ...(end < items.length ? { next: sealCursor(scope, end) } : {}),
  };
}

/**
 * How many items, from the start of the list, the page asked for needs: its end plus one (to
 * tell whether another page exists). Lets a list computed best-first stop there (search).
 */
export function itemsNeeded(options: { limit: number; cursor?: string; scope: string }): number {
  return offsetOf(options) + options.limit + 1;
}

function offsetOf(options: { cursor?: string; scope: string }): number {
  return options.cursor ? openCursor(options.cursor, `array:${options.scope}`, isOffset) : 0;
}

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
