import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../secrets/keys.ts';
import { badRequest } from './errors.ts';

/**
 * The one pagination cursor of the service: `<payload>.<tag>`, both base64url, where the
 * payload is JSON (a DynamoDB start key, an offset, ...) and the tag is HMAC-SHA256 over
 * the scope and the payload with the service's cursor key (derivedKey('cursor')). The
 * scope names the list that made the cursor (table/index and partition, a site's
 * sections, ...) and is not in the cursor: a cursor presented to another list, edited,
 * truncated or made up fails the tag check and answers 400 before anything is read.
 */

/** Longest cursor accepted (the service's own are far shorter: keys are made of ids). */
export const MAX_CURSOR_LENGTH = 2048;
export const INVALID_CURSOR = 'page: is not a valid page cursor';

let current: Buffer | undefined;

/** Loads the cursor key; request middleware awaits it so sync code can seal and open. */
export async function loadCursorKey(): Promise<Buffer> {
  current = await derivedKey('cursor');
  return current;
}

function cursorKey(): Buffer {
  if (!current) throw new Error('The cursor key is not loaded: await loadCursorKey() first');
  return current;
}

function tag(key: Buffer, scope: string, payload: string): Buffer {
  return createHmac('sha256', key).update(scope).update('\0').update(payload).digest();
}

/** A cursor for `value` that only `openCursor` with the same scope accepts. */
export function sealCursor(scope: string, value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${tag(cursorKey(), scope, payload).toString('base64url')}`;
}

/**
 * The value sealed in `cursor` for `scope`, if `isValid` accepts it; any other cursor is
 * a 400 `page: is not a valid page cursor`.
 */
export function openCursor<T>(cursor: string, scope: string, isValid: (value: unknown) => value is T): T {
  if (cursor.length > MAX_CURSOR_LENGTH) throw badRequest(INVALID_CURSOR);
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(cursor);
  if (!m) throw badRequest(INVALID_CURSOR);
  const expected = tag(cursorKey(), scope, m[1]!);
  const given = Buffer.from(m[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest(INVALID_CURSOR);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  if (!isValid(value)) throw badRequest(INVALID_CURSOR);
  return value;
}
