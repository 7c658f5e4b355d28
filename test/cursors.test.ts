import { createHmac, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { sealCursor } from '../shared/http/cursor.ts';
import { memberEntity } from '../shared/db/entities/member.ts';

/**
 * Pagination cursors are sealed with HMAC-SHA256 (shared/http/cursor.ts) for the list that
 * made them: an edited, truncated, re-signed, over-long or borrowed cursor is a 400 before
 * anything is read, and the real one keeps working. Both cursor producers are covered:
 * a DynamoDB query (members by join date) and an in-memory list (members by name).
 */
const api = useTestApi();
let orgA: TestOrg;
let orgB: TestOrg;

beforeAll(async () => {
  [orgA, orgB] = await Promise.all([newOrg('Cursor A'), newOrg('Cursor B')]);
  for (const org of [orgA, orgB]) for (const name of ['Ann', 'Bob', 'Cyd']) await org.member('read', name);
});

const INVALID = { error: { code: 400, message: 'page: is not a valid page cursor' } };

const listMembers = (org: TestOrg, query: Record<string, string | number>) =>
  api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { limit: 2, ...query } });

/** The cursor with one bit flipped at character `at` of its base64url text. */
function flipped(cursor: string, at: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const i = alphabet.indexOf(cursor[at]!);
  return cursor.slice(0, at) + alphabet[i ^ 1] + cursor.slice(at + 1);
}

describe.each([
  ['a DynamoDB query (members by join date)', {}],
  ['an in-memory list (members by name)', { sort: 'name' }],
])('cursor of %s', (_name, extra: Record<string, string>) => {
  it('the real cursor pages on; forged, tampered, truncated and borrowed ones are 400s', async () => {
    const first = await listMembers(orgA, extra);
    expect(first.status).toBe(200);
    const cursor: string = first.body.next.page;
    const second = await listMembers(orgA, { ...extra, page: cursor });
    expect(second.status).toBe(200);
    const firstIds = first.body.items.map((m: { id: string }) => m.id);
    expect(second.body.items.length).toBeGreaterThan(0);
    for (const m of second.body.items) expect(firstIds).not.toContain(m.id);

    const [payload, tag] = cursor.split('.') as [string, string];
    const forgeries: Record<string, string> = {
      'a payload bit flipped': flipped(cursor, 3),
      'a tag bit flipped': flipped(cursor, cursor.length - 5),
      'truncated': cursor.slice(0, -1),
      'the tag removed': payload,
      're-signed with another key': `${payload}.${createHmac('sha256', randomBytes(32)).update(payload).digest('base64url')}`,
      'an unsigned key (the old format)': Buffer.from(JSON.stringify(memberEntity.key({ orgId: orgA.id, userId: 'x' }))).toString('base64url'),
      'over-long': `${payload}${'A'.repeat(3000)}.${tag}`,
      'junk': '%%%not a cursor%%%',
    };
    for (const [what, page] of Object.entries(forgeries)) {
      const res = await listMembers(orgA, { ...extra, page });
      expect({ what, status: res.status, body: res.body }).toEqual({ what, status: 400, body: INVALID });
    }
    // A valid cursor of organization A presented to organization B's list (another partition).
    const borrowed = await listMembers(orgB, { ...extra, page: cursor });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body).toEqual(INVALID);
    // The original still works after all that.
    expect((await listMembers(orgA, { ...extra, page: cursor })).body.items).toEqual(second.body.items);
  });
});

it('a correctly signed cursor for another list scope, or of the wrong shape, is refused', async () => {
  // Same key as the server (one process): only the scope or the shape is wrong.
  const otherScope = sealCursor(`array:members-by-name:${orgB.id}`, 2);
  expect((await listMembers(orgA, { sort: 'name', page: otherScope })).body).toEqual(INVALID);
  const wrongShape = sealCursor(`array:members-by-name:${orgA.id}`, -5);
  expect((await listMembers(orgA, { sort: 'name', page: wrongShape })).body).toEqual(INVALID);
  const rightOne = sealCursor(`array:members-by-name:${orgA.id}`, 2);
  const res = await listMembers(orgA, { sort: 'name', page: rightOne });
  expect(res.status).toBe(200);
  expect(res.body.items).toHaveLength(2); // 4 members (admin + 3): offset 2 leaves 2
});
