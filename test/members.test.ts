import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { jwtVerify } from 'jose';
import { useTestApi, newOrg, newUser, type TestOrg, type TestUser } from './support/api.ts';
import { createTeam } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { randomId } from '../shared/ids.ts';
import { derivedKey } from '../shared/secrets/keys.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { spaceEntity, type SpaceItem } from '../shared/db/entities/space.ts';
import { teamEntity, teamMemberEntity } from '../shared/db/entities/team.ts';

const api = useTestApi();

let spaceSeq = 0;
/** A space written straight to the table (space creation belongs to another group). */
async function putSpace(orgId: string, overrides: Partial<SpaceItem> = {}): Promise<SpaceItem> {
  const n = spaceSeq++;
  const createdAt = new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
  const space: SpaceItem = {
    id: randomId(), orgId, title: `Space ${n}`, visibility: 'private', editMode: 'live', ancestors: [], position: `a${n}`,
    defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, shareKey: randomId(), comments: 0, changeRequests: 0,
    changeRequestsOpen: 0, changeRequestsDraft: 0, createdBy: 'test', createdAt, updatedAt: createdAt, ...overrides,
  };
  await db().send(new PutCommand({ TableName: config.tableName, Item: spaceEntity.toRecord({ spaceId: space.id }, space) }));
  return space;
}

const storedMember = (orgId: string, userId: string) => getRecord(memberEntity.key({ orgId, userId }));
const ids = (items: { id: string }[]) => items.map((i) => i.id);


describe('GET /orgs/{organizationId}/members', () => {
  let org: TestOrg;
  let members: Record<string, TestUser>;
  beforeAll(async () => {
    org = await newOrg();
    members = {
      read: await org.member('read', 'Rita Reader'),
      edit: await org.member('edit', 'Eddie Editor'),
      create: await org.member('create', 'Cora Creator'),
      guest: await org.member(null, 'Gus Guest'),
    };
    await putSpace(org.id);
    await putSpace(org.id, { defaultLevel: null });
  });

  it('lists members with every field, users loaded in one batch', async () => {
    const res = await api.request('GET', `/orgs/${org.id}/members`, { token: members.read!.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
    expect(res.body.next).toBeUndefined();
    const rita = res.body.items.find((m: { id: string }) => m.id === members.read!.user.id);
    const stored = memberEntity.fromRecord((await storedMember(org.id, members.read!.user.id))!);
    expect(rita).toEqual({
      object: 'member',
      id: members.read!.user.id,
      role: 'read',
      user: {
        object: 'user', id: members.read!.user.id, displayName: members.read!.user.displayName, email: members.read!.user.email,
        urls: { location: `${api.url}/v1/users/${members.read!.user.id}` },
      },
      disabled: false,
      joinedAt: stored.joinedAt,
      sso: false,
      spaces: 2,
      teams: 0,
      sites: 0,
    });
    const byId = Object.fromEntries(res.body.items.map((m: { id: string; spaces: number }) => [m.id, m.spaces]));
    expect(byId[org.admin.user.id]).toBe(2);
    expect(byId[members.guest!.user.id]).toBe(0); // guests read nothing through their role
    // token+org, caller member, members Query, spaces Query, one BatchGet (users + ancestors)
    expect(Number(res.headers.get('x-db-round-trips'))).toBe(5);
  });

  it('orders by joinedAt (desc by default, asc on request) and paginates', async () => {
    const stored = await Promise.all([org.admin, ...Object.values(members)].map((m) => storedMember(org.id, m.user.id)));
    const expected = stored.map((r) => memberEntity.fromRecord(r!)).sort((a, b) => (`${a.joinedAt}#${a.userId}` < `${b.joinedAt}#${b.userId}` ? -1 : 1))
      .map((m) => m.userId);
    const desc = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token });
    expect(ids(desc.body.items)).toEqual([...expected].reverse());
    const asc = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { order: 'asc' } });
    expect(ids(asc.body.items)).toEqual(expected);
    const pages: string[][] = [];
    let page: string | undefined;
    do {
      const res = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { limit: 2, order: 'asc', page } });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.items.length);
      pages.push(ids(res.body.items));
      page = res.body.next?.page;
    } while (page);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(expected);
  });

  it('filters by role (a role or guest) and by search on name and email, case-insensitively', async () => {
    const edit = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { role: 'edit' } });
    expect(ids(edit.body.items)).toEqual([members.edit!.user.id]);
    const guests = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { role: 'guest' } });
    expect(ids(guests.body.items)).toEqual([members.guest!.user.id]);
    const admins = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { role: 'admin', limit: 1 } });
    expect(ids(admins.body.items)).toEqual([org.admin.user.id]);
    // A full filtered page cannot know no match follows: the next page is then empty.
    const after = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { role: 'admin', limit: 1, page: admins.body.next.page } });
    expect(after.body).toEqual({ items: [], count: 0 });
    const byName = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { search: 'EDDIE' } });
    expect(ids(byName.body.items)).toEqual([members.edit!.user.id]);
    const emailPart = members.create!.user.email.split('@')[0]!.toUpperCase();
    const byEmail = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { search: emailPart } });
    expect(ids(byEmail.body.items)).toEqual([members.create!.user.id]);
    const both = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { search: 'eddie', role: 'read' } });
    expect(both.body.items).toEqual([]);
    // A filter that drops most items still fills pages across the partition.
    const paged = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { search: 'example.com', limit: 4 } });
    expect(paged.body.items).toHaveLength(4);
    const rest = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { search: 'example.com', limit: 4, page: paged.body.next.page } });
    expect(rest.body.items).toHaveLength(1);
  });

  it('sorts by name, asc or desc, with pages', async () => {
    const names = (items: { user: { displayName: string } }[]) => items.map((m) => m.user.displayName.toLowerCase());
    const all = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { sort: 'name', order: 'asc' } });
    const sorted = [...names(all.body.items)].sort();
    expect(names(all.body.items)).toEqual(sorted);
    const desc = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { sort: 'name' } });
    expect(names(desc.body.items)).toEqual([...sorted].reverse());
    const p1 = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { sort: 'name', order: 'asc', limit: 3 } });
    const p2 = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { sort: 'name', order: 'asc', limit: 3, page: p1.body.next.page } });
    expect([...names(p1.body.items), ...names(p2.body.items)]).toEqual(sorted);
    expect(p2.body.next).toBeUndefined();
    const wrongCursor = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { page: p1.body.next.page } });
    expect(wrongCursor.status).toBe(400);
    expect(wrongCursor.body.error.message).toMatch(/^page: /);
  });

  it('sort lastSeenAt lists only members who pinged, most recent first by default', async () => {
    const fresh = await newOrg();
    const a = await fresh.member('read');
    const b = await fresh.member('edit');
    await fresh.member('edit');
    const none = await api.request('GET', `/orgs/${fresh.id}/members`, { token: fresh.admin.token, query: { sort: 'lastSeenAt' } });
    expect(none.body.items).toEqual([]);
    expect((await api.request('POST', `/orgs/${fresh.id}/ping`, { token: a.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await api.request('POST', `/orgs/${fresh.id}/ping`, { token: b.token })).status).toBe(200);
    const seen = await api.request('GET', `/orgs/${fresh.id}/members`, { token: fresh.admin.token, query: { sort: 'lastSeenAt' } });
    expect(ids(seen.body.items)).toEqual([b.user.id, a.user.id]);
    expect(seen.body.items[0].lastSeenAt).toEqual(expect.any(String));
    const asc = await api.request('GET', `/orgs/${fresh.id}/members`, { token: fresh.admin.token, query: { sort: 'lastSeenAt', order: 'asc', role: 'read' } });
    expect(ids(asc.body.items)).toEqual([a.user.id]);
  });

  it('rejects bad query values naming the parameter', async () => {
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'], [{ limit: 1001 }, 'limit'], [{ order: 'up' }, 'order'], [{ role: 'owner' }, 'role'],
      [{ sort: 'email' }, 'sort'], [{ search: 'x'.repeat(257) }, 'search'], [{ page: 'not-a-cursor' }, 'page'],
    ] as const) {
      const res = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('401 without a token, 403 for guests, 404 for non-members', async () => {
    expect((await api.request('GET', `/orgs/${org.id}/members`)).status).toBe(401);
    const guest = await api.request('GET', `/orgs/${org.id}/members`, { token: members.guest!.token });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ error: { code: 403, message: expect.any(String) } });
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/members`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', '/orgs/nope/members', { token: org.admin.token })).status).toBe(404);
  });
});

describe('GET /orgs/{organizationId}/members/{userId}', () => {
  it('returns the member; guests only themselves; 404 when not a member', async () => {
    const org = await newOrg();
    const reader = await org.member('read');
    const guest = await org.member(null);
    await putSpace(org.id);
    const res = await api.request('GET', `/orgs/${org.id}/members/${org.admin.user.id}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'member', id: org.admin.user.id, role: 'admin', disabled: false, sso: false, spaces: 1, teams: 0, sites: 0,
      user: { object: 'user', id: org.admin.user.id, email: org.admin.user.email },
    });
    expect(res.body.lastSeenAt).toBeUndefined();
    const self = await api.request('GET', `/orgs/${org.id}/members/${guest.user.id}`, { token: guest.token });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ role: null, spaces: 0 });
    expect((await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}`, { token: guest.token })).status).toBe(403);
    const stranger = await newUser('Stranger');
    expect((await api.request('GET', `/orgs/${org.id}/members/${stranger.user.id}`, { token: reader.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${other.id}/members/${other.admin.user.id}`, { token: reader.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/members/${org.admin.user.id}`)).status).toBe(401);
  });
});

describe('PATCH /orgs/{organizationId}/members/{userId}', () => {
  it('changes the role (admin only) and stores it', async () => {
    const org = await newOrg();
    const member = await org.member('read');
    const res = await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token, body: { role: 'edit' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: member.user.id, role: 'edit', user: { id: member.user.id } });
    expect(await storedMember(org.id, member.user.id)).toMatchObject({ role: 'edit' });
    const guest = await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token, body: { role: null } });
    expect(guest.status).toBe(200);
    expect(guest.body.role).toBeNull();
    expect((await storedMember(org.id, member.user.id))!.role).toBeNull();
    const list = await api.request('GET', `/orgs/${org.id}/members`, { token: org.admin.token, query: { role: 'guest' } });
    expect(ids(list.body.items)).toEqual([member.user.id]);
  });

  it('rejects bad bodies naming the field, writing nothing', async () => {
    const org = await newOrg();
    const member = await org.member('read');
    for (const [body, field] of [[{ role: 'owner' }, 'role'], [{}, 'role'], [{ role: 'edit', extra: 1 }, 'extra'], [[], 'body']] as const) {
      const res = await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    const badJson = await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token, rawBody: '{"role":' });
    expect(badJson.status).toBe(400);
    expect(await storedMember(org.id, member.user.id)).toMatchObject({ role: 'read' });
  });

  it('403 for non-admins, 404 for non-members and other organizations, 401 without token', async () => {
    const org = await newOrg();
    const creator = await org.member('create');
    const member = await org.member('read');
    expect((await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: creator.token, body: { role: 'admin' } })).status).toBe(403);
    expect((await api.request('PATCH', `/orgs/${org.id}/members/${creator.user.id}`, { token: creator.token, body: { role: 'admin' } })).status).toBe(403);
    expect(await storedMember(org.id, creator.user.id)).toMatchObject({ role: 'create' });
    expect((await api.request('PATCH', `/orgs/${org.id}/members/nobody`, { token: org.admin.token, body: { role: 'read' } })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: other.admin.token, body: { role: 'read' } })).status).toBe(404);
    expect((await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { body: { role: 'read' } })).status).toBe(401);
  });

  it('never demotes the last admin, even when two admins demote each other at once', async () => {
    const org = await newOrg();
    const last = await api.request('PATCH', `/orgs/${org.id}/members/${org.admin.user.id}`, { token: org.admin.token, body: { role: 'edit' } });
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/last admin/);
    expect(await storedMember(org.id, org.admin.user.id)).toMatchObject({ role: 'admin' });
    const second = await org.member('admin');
    const [a, b] = await Promise.all([
      api.request('PATCH', `/orgs/${org.id}/members/${second.user.id}`, { token: org.admin.token, body: { role: 'read' } }),
      api.request('PATCH', `/orgs/${org.id}/members/${org.admin.user.id}`, { token: second.token, body: { role: 'read' } }),
    ]);
    // One wins. The loser gets 409 (the last-admin guard) or, when the winner's write landed
    // before the loser was authorized, 403 (the loser is no longer an admin).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = [await storedMember(org.id, org.admin.user.id), await storedMember(org.id, second.user.id)].map((r) => r!.role);
    expect(roles.filter((r) => r === 'admin')).toHaveLength(1);
  });
});

describe('DELETE /orgs/{organizationId}/members/{userId}', () => {
  it('removes the member with their team memberships and decrements team counts', async () => {
    const org = await newOrg();
    const member = await org.member('edit');
    const other = await org.member('read');
    const t1 = await createTeam(api, org, { title: 'One', members: [member.user.id, other.user.id] });
    const t2 = await createTeam(api, org, { title: 'Two', members: [member.user.id] });
    expect(await storedMember(org.id, member.user.id)).toMatchObject({ teams: 2 });
    const res = await api.request('DELETE', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await storedMember(org.id, member.user.id)).toBeUndefined();
    expect(await getRecord(teamMemberEntity.key({ orgId: org.id, teamId: t1.id, userId: member.user.id }))).toBeUndefined();
    expect(await getRecord(teamMemberEntity.key({ orgId: org.id, teamId: t2.id, userId: member.user.id }))).toBeUndefined();
    expect(await getRecord(teamEntity.key({ orgId: org.id, teamId: t1.id }))).toMatchObject({ members: 1 });
    expect(await getRecord(teamEntity.key({ orgId: org.id, teamId: t2.id }))).toMatchObject({ members: 0 });
    expect(await getRecord(teamMemberEntity.key({ orgId: org.id, teamId: t1.id, userId: other.user.id }))).toBeDefined();
    // The removed member has lost access.
    expect((await api.request('GET', `/orgs/${org.id}/members`, { token: member.token })).status).toBe(404);
    // Absent: still 204.
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token })).status).toBe(204);
  });

  it('lets a member leave; others need the admin role; 404 across organizations; 401 without token', async () => {
    const org = await newOrg();
    const a = await org.member('read');
    const b = await org.member('create');
    const forbidden = await api.request('DELETE', `/orgs/${org.id}/members/${a.user.id}`, { token: b.token });
    expect(forbidden.status).toBe(403);
    expect(await storedMember(org.id, a.user.id)).toBeDefined();
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${a.user.id}`, { token: a.token })).status).toBe(204);
    expect(await storedMember(org.id, a.user.id)).toBeUndefined();
    const other = await newOrg();
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${b.user.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${b.user.id}`)).status).toBe(401);
    expect(await storedMember(org.id, b.user.id)).toBeDefined();
  });

  it('refuses to remove the last admin (409); works once another admin exists', async () => {
    const org = await newOrg();
    const res = await api.request('DELETE', `/orgs/${org.id}/members/${org.admin.user.id}`, { token: org.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/last admin/);
    expect(await storedMember(org.id, org.admin.user.id)).toBeDefined();
    const second = await org.member('admin');
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${org.admin.user.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${second.user.id}`, { token: second.token })).status).toBe(409);
  });
});

describe('POST /orgs/{organizationId}/ping', () => {
  it('records lastSeenAt and returns a signed visitor-claims JWT', async () => {
    const org = await newOrg();
    const member = await org.member('comment');
    const before = Math.floor(Date.now() / 1000);
    const res = await api.request('POST', `/orgs/${org.id}/ping`, { token: member.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['serviceVisitorClaims']);
    const { payload, protectedHeader } = await jwtVerify(res.body.serviceVisitorClaims, await derivedKey('visitor-claims'), {
      issuer: api.url, subject: member.user.id, algorithms: ['HS256'],
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: member.user.id, org: org.id, role: 'comment', iss: api.url });
    expect(payload.iat).toBeGreaterThanOrEqual(before - 1);
    expect(payload.exp! - payload.iat!).toBe(3600);
    await expect(jwtVerify(res.body.serviceVisitorClaims, new TextEncoder().encode('another secret'))).rejects.toThrow();
    const stored = await storedMember(org.id, member.user.id);
    expect(stored).toMatchObject({ lastSeenAt: expect.any(String) });
    // Now in the organization's members-by-last-seen index.
    expect((await memberEntity.query.bySeen({ orgId: org.id }).all()).map((m) => m.userId)).toContain(member.user.id);
    const got = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}`, { token: member.token });
    expect(got.body.lastSeenAt).toBe(stored!.lastSeenAt);
  });

  it('works for guests (role null in the claims); 404 for non-members; 401 without token', async () => {
    const org = await newOrg();
    const guest = await org.member(null);
    const res = await api.request('POST', `/orgs/${org.id}/ping`, { token: guest.token });
    expect(res.status).toBe(200);
    const { payload } = await jwtVerify(res.body.serviceVisitorClaims, await derivedKey('visitor-claims'));
    expect(payload.role).toBeNull();
    const other = await newOrg();
    expect((await api.request('POST', `/orgs/${org.id}/ping`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/orgs/${org.id}/ping`)).status).toBe(401);
    expect((await storedMember(org.id, other.admin.user.id))).toBeUndefined();
  });
});

describe('POST /orgs/{organizationId}/members/{userId}/sso', () => {
  it('marks the member as SSO member (admin only)', async () => {
    const org = await newOrg();
    const member = await org.member('edit');
    const denied = await api.request('POST', `/orgs/${org.id}/members/${member.user.id}/sso`, { token: member.token });
    expect(denied.status).toBe(403);
    expect(await storedMember(org.id, member.user.id)).toMatchObject({ sso: false });
    const res = await api.request('POST', `/orgs/${org.id}/members/${member.user.id}/sso`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: member.user.id, sso: true, role: 'edit' });
    expect(await storedMember(org.id, member.user.id)).toMatchObject({ sso: true });
    expect((await api.request('POST', `/orgs/${org.id}/members/nobody/sso`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('POST', `/orgs/${org.id}/members/${member.user.id}/sso`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/orgs/${org.id}/members/${member.user.id}/sso`)).status).toBe(401);
  });
});

describe('GET /orgs/{organizationId}/members/{userId}/spaces', () => {
  it('lists the spaces the member can read with their permission, newest first, paginated', async () => {
    const org = await newOrg();
    const reader = await org.member('read');
    const s1 = await putSpace(org.id);
    const s2 = await putSpace(org.id, { defaultLevel: 'edit' });
    const s3 = await putSpace(org.id);
    await putSpace(org.id, { deletedAt: new Date().toISOString(), expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const res = await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([s3.id, s2.id, s1.id]);
    expect(res.body.items.map((i: { permission: string }) => i.permission)).toEqual(['read', 'edit', 'read']);
    const first = res.body.items[2];
    expect(first.space).toMatchObject({
      object: 'space', id: s1.id, title: s1.title, organization: org.id, visibility: 'private',
      permissions: { view: true, admin: false, edit: false },
    });
    expect(res.body.items[1].space.permissions).toMatchObject({ edit: true, admin: false });
    const member = await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}`, { token: reader.token });
    expect(member.body.spaces).toBe(3); // the count agrees with the list
    const asc = await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`, { token: reader.token, query: { order: 'asc', limit: 2 } });
    expect(asc.status).toBe(200);
    expect(asc.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([s1.id, s2.id]);
    const next = await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`, {
      token: reader.token, query: { order: 'asc', limit: 2, page: asc.body.next.page },
    });
    expect(next.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([s3.id]);
    expect(next.body.next).toBeUndefined();
  });

  it('guests list nothing; admin or self only; 400, 404 and 401', async () => {
    const org = await newOrg();
    const guest = await org.member(null);
    const reader = await org.member('read');
    await putSpace(org.id);
    const own = await api.request('GET', `/orgs/${org.id}/members/${guest.user.id}/spaces`, { token: guest.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ items: [], count: 0 });
    expect((await api.request('GET', `/orgs/${org.id}/members/${guest.user.id}/spaces`, { token: reader.token })).status).toBe(403);
    const bad = await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`, { token: reader.token, query: { order: 'sideways' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^order: /);
    expect((await api.request('GET', `/orgs/${org.id}/members/nobody/spaces`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/members/${reader.user.id}/spaces`)).status).toBe(401);
  });
});

describe('GET /orgs/{organizationId}/members/{userId}/teams', () => {
  it('lists the member\'s teams with their team role, filtered by title, paginated', async () => {
    const org = await newOrg();
    const member = await org.member('edit');
    const alpha = await createTeam(api, org, { title: 'Alpha Writers', members: [member.user.id, org.admin.user.id] });
    const beta = await createTeam(api, org, { title: 'Beta Reviewers', members: [member.user.id] });
    await createTeam(api, org, { title: 'Gamma', members: [org.admin.user.id] });
    const res = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const byId = Object.fromEntries(res.body.items.map((i: { team: { id: string } }) => [i.team.id, i]));
    expect(byId[alpha.id]).toEqual({
      team: { object: 'team', id: alpha.id, title: 'Alpha Writers', members: 2, spaces: 0, createdAt: alpha.createdAt, permissions: { admin: false, view: true } },
      member: { role: 'member' },
    });
    expect(byId[beta.id].member).toEqual({ role: 'member' });
    const admin = await api.request('GET', `/orgs/${org.id}/members/${org.admin.user.id}/teams`, { token: org.admin.token });
    expect(admin.body.items.map((i: { member: { role: string } }) => i.member.role)).toEqual(['owner', 'owner']);
    const filtered = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: org.admin.token, query: { title: 'REVIEW' } });
    expect(filtered.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([beta.id]);
    const p1 = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: member.token, query: { limit: 1 } });
    const p2 = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: member.token, query: { limit: 1, page: p1.body.next.page } });
    expect(new Set([p1.body.items[0].team.id, p2.body.items[0].team.id])).toEqual(new Set([alpha.id, beta.id]));
    expect(p2.body.next).toBeUndefined();
  });

  it('admin or self only; 400, 404 and 401', async () => {
    const org = await newOrg();
    const a = await org.member('edit');
    const b = await org.member('edit');
    expect((await api.request('GET', `/orgs/${org.id}/members/${a.user.id}/teams`, { token: b.token })).status).toBe(403);
    const bad = await api.request('GET', `/orgs/${org.id}/members/${a.user.id}/teams`, { token: a.token, query: { limit: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^limit: /);
    expect((await api.request('GET', `/orgs/${org.id}/members/nobody/teams`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/members/${a.user.id}/teams`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/members/${a.user.id}/teams`)).status).toBe(401);
  });
});
