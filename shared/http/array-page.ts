import { openCursor, sealCursor } from './cursor.ts';

/**
 * One page of a list that is already in memory (a revision's files, members sorted by
 * name). The cursor seals an offset for `scope` (what was listed), so a cursor from
 * another list, or an edited one, is refused (shared/http/cursor.ts).
 */
export function pageOfArray<T>(items: T[], options: { limit: number; cursor?: string; scope: string }): { items: T[]; next?: string } {
  const scope = `array:${options.scope}`;
  const offset = options.cursor ? openCursor(options.cursor, scope, isOffset) : 0;
  const end = offset + options.limit;
  return {
    items: items.slice(offset, end),
    ...(end < items.length ? { next: sealCursor(scope, end) } : {}),
  };
}

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
