import { badRequest } from './errors.ts';

/**
 * One page of a list that is already in memory (a revision's files, members sorted by
 * name). The cursor is an offset bound to `scope` (what was listed), so a cursor from
 * another list is refused.
 */
export function pageOfArray<T>(items: T[], options: { limit: number; cursor?: string; scope: string }): { items: T[]; next?: string } {
  const offset = options.cursor ? decodeOffset(options.cursor, options.scope) : 0;
  const end = offset + options.limit;
  return {
    items: items.slice(offset, end),
    ...(end < items.length ? { next: Buffer.from(JSON.stringify({ scope: options.scope, offset: end })).toString('base64url') } : {}),
  };
}

function decodeOffset(cursor: string, scope: string): number {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('page: is not a valid page cursor');
  }
  const c = value as { scope?: unknown; offset?: unknown } | null;
  if (!c || c.scope !== scope || !Number.isSafeInteger(c.offset) || (c.offset as number) < 0) {
    throw badRequest('page: is not a valid page cursor');
  }
  return c.offset as number;
}
