import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, newOrg, newUser, type TestOrg } from './support/api.ts';
import { createTeam } from './support/factories.ts';
import { getRecord, queryAll } from '../shared/db/operations.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { memberTeamsPartition, teamEntity, teamMemberEntity } from '../shared/db/entities/team.ts';

const api = useTestApi();

const base = (org: TestOrg) => `/orgs/${org.id}/teams`;
const storedTeam = (org: TestOrg, teamId: string) => getRecord(teamEntity.key({ orgId: org.id, teamId }));
const storedMembership = (org: TestOrg, teamId: string, userId: string) => getRecord(teamMemberEntity.key({ orgId: org.id, teamId, userId }));
const memberTeams = async (org: TestOrg, userId: string) => (await getRecord(memberEntity.key({ orgId: org.id, userId })))!.teams;
const teamCount = async (org: TestOrg) => (await teamEntity.query.inOrg({ orgId: org.id }).all()).length;
const ids = (items: { id: string }[]) => items.map((i) => i.id);


describe('PUT /orgs/{organizationId}/teams', () => {
  it('creates a team with its memberships and member counters in one go', async () => {
    const org = await newOrg();
    const a = await org.member('edit');
    const b = await org.member(null);
    const res = await api.request('PUT', base(org), {
      token: org.admin.token, body: { title: '  Docs Writers ', members: [a.user.id, b.user.id, org.admin.user.id, a.user.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'team', id: expect.any(String), title: 'Docs Writers', members: 3, spaces: 0,
      createdAt: expect.any(String), permissions: { admin: true, view: true },
    });
    expect(await storedTeam(org, res.body.id)).toMatchObject({ title: 'Docs Writers', titleLower: 'docs writers', members: 3, orgId: org.id });
    expect(await storedMembership(org, res.body.id, a.user.id)).toMatchObject({ role: 'member', titleLower: 'docs writers' });
    expect(await storedMembership(org, res.body.id, org.admin.user.id)).toMatchObject({ role: 'owner' }); // the creator, listed
    expect(await memberTeams(org, a.user.id)).toBe(1);
    expect(await memberTeams(org, b.user.id)).toBe(1);
    const empty = await createTeam(api, org, { title: 'Nobody' });
    expect(empty.members).toBe(0);
    expect(await storedMembership(org, empty.id, org.admin.user.id)).toBeUndefined(); // creator not listed: not a member
  });

  it('rejects bad bodies naming the field and writes nothing', async () => {
    const org = await newOrg();
    const member = await org.member('read');
    const stranger = await newUser('Stranger');
    for (const [body, field] of [
      [{}, 'title'], [{ title: '   ' }, 'title'], [{ title: 'x'.repeat(65) }, 'title'], [{ title: 7 }, 'title'],
      [{ title: 'T', members: 'x' }, 'members'], [{ title: 'T', members: [1] }, 'members.0'], [{ title: 'T', color: 'red' }, 'color'],
      [{ title: 'T', members: [member.user.id, stranger.user.id] }, 'members'],
    ] as const) {
      const res = await api.request('PUT', base(org), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    const notMember = await api.request('PUT', base(org), { token: org.admin.token, body: { title: 'T', members: [stranger.user.id] } });
    expect(notMember.body.error.message).toBe(`members: ${stranger.user.id} is not a member of this organization`);
    expect(await teamCount(org)).toBe(0);
    expect(await memberTeams(org, member.user.id)).toBe(0);
    expect(await createTeam(api, org, { title: 'x'.repeat(64) })).toMatchObject({ title: 'x'.repeat(64) });
  });

  it('admin only: 403 for other roles, 404 across organizations, 401 without token', async () => {
    const org = await newOrg();
    const creator = await org.member('create');
    expect((await api.request('PUT', base(org), { token: creator.token, body: { title: 'No' } })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('PUT', base(org), { token: other.admin.token, body: { title: 'No' } })).status).toBe(404);
    expect((await api.request('PUT', base(org), { body: { title: 'No' } })).status).toBe(401);
    expect(await teamCount(org)).toBe(0);
  });

  it('loses no counter update when teams are created concurrently with the same member', async () => {
    const org = await newOrg();
    const member = await org.member('edit');
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) =>
      api.request('PUT', base(org), { token: org.admin.token, body: { title: `Team ${i}`, members: [member.user.id] } })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await memberTeams(org, member.user.id)).toBe(5);
    const res = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}`, { token: member.token });
    expect(res.body.teams).toBe(5);
  });

  it('creates teams larger than one transaction with exact counters', async () => {
    const org = await newOrg();
    const users = await Promise.all(Array.from({ length: 52 }, () => org.member('read')));
    const team = await createTeam(api, org, { title: 'Everyone', members: users.map((u) => u.user.id) });
    expect(team.members).toBe(52);
    expect(await storedTeam(org, team.id)).toMatchObject({ members: 52 });
    expect(await memberTeams(org, users[51]!.user.id)).toBe(1);
    const renamed = await api.request('PATCH', `${base(org)}/${team.id}`, { token: org.admin.token, body: { title: 'All Hands' } });
    expect(renamed.status).toBe(200);
    expect(await storedMembership(org, team.id, users[51]!.user.id)).toMatchObject({ titleLower: 'all hands' });
    expect((await api.request('DELETE', `${base(org)}/${team.id}`, { token: org.admin.token })).status).toBe(205);
    expect(await storedTeam(org, team.id)).toBeUndefined();
    expect(await teamMemberEntity.query.byTeam({ orgId: org.id, teamId: team.id }).all()).toEqual([]);
    expect(await memberTeams(org, users[0]!.user.id)).toBe(0);
  });
});

describe('GET /orgs/{organizationId}/teams', () => {
  let org: TestOrg;
  let owner: Awaited<ReturnType<TestOrg['member']>>;
  const teams: Record<string, { id: string }> = {};
  beforeAll(async () => {
    org = await newOrg();
    owner = await org.member('edit');
    for (const title of ['Docs', 'API docs', 'Support', 'Sales', 'Design']) teams[title] = await createTeam(api, org, { title });
    // `owner` owns one team (created by them as an admin, then demoted) and is a plain member of another.
    await api.request('PATCH', `/orgs/${org.id}/members/${owner.user.id}`, { token: org.admin.token, body: { role: 'admin' } });
    const res = await api.request('PUT', base(org), { token: owner.token, body: { title: 'Owned Docs', members: [owner.user.id] } });
    teams['Owned Docs'] = res.body;
    await api.request('PATCH', `/orgs/${org.id}/members/${owner.user.id}`, { token: org.admin.token, body: { role: 'edit' } });
    teams['Joined'] = await createTeam(api, org, { title: 'Joined', members: [owner.user.id] });
  });

  it('lists every team of the organization across pages', async () => {
    const member = await org.member('read');
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await api.request('GET', base(org), { token: member.token, query: { limit: 2, page } });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      for (const t of res.body.items) expect(t).toMatchObject({ object: 'team', spaces: 0, permissions: { admin: false, view: true } });
      seen.push(...ids(res.body.items));
      page = res.body.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(4);
    expect(seen.sort()).toEqual(Object.values(teams).map((t) => t.id).sort());
  });

  it('filters by title, case-insensitively', async () => {
    const res = await api.request('GET', base(org), { token: org.admin.token, query: { title: 'DOCS' } });
    expect(ids(res.body.items).sort()).toEqual([teams['Docs']!.id, teams['API docs']!.id, teams['Owned Docs']!.id].sort());
    const paged = await api.request('GET', base(org), { token: org.admin.token, query: { title: 's', limit: 10 } });
    expect(paged.body.count).toBe(6); // every title with an "s": all but "Joined"
  });

  it('filters by owner: the teams that member can manage', async () => {
    const owned = await api.request('GET', base(org), { token: org.admin.token, query: { owner: owner.user.id } });
    expect(owned.status).toBe(200);
    expect(ids(owned.body.items)).toEqual([teams['Owned Docs']!.id]);
    const ownedTitle = await api.request('GET', base(org), { token: org.admin.token, query: { owner: owner.user.id, title: 'support' } });
    expect(ownedTitle.body.items).toEqual([]);
    const admin = await api.request('GET', base(org), { token: org.admin.token, query: { owner: org.admin.user.id, title: 'docs' } });
    expect(admin.body.count).toBe(3); // org admins manage every team
    const reader = await org.member('read');
    const none = await api.request('GET', base(org), { token: reader.token, query: { owner: reader.user.id } });
    expect(none.body).toEqual({ items: [], count: 0 });
    const stranger = await newUser('Stranger');
    const bad = await api.request('GET', base(org), { token: org.admin.token, query: { owner: stranger.user.id } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^owner: /);
  });

  it('400 on bad parameters, 403 for guests, 404 across organizations, 401 without token', async () => {
    for (const [query, field] of [[{ limit: 0 }, 'limit'], [{ page: 'garbage' }, 'page'], [{ title: 'x'.repeat(65) }, 'title']] as const) {
      const res = await api.request('GET', base(org), { token: org.admin.token, query });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    const guest = await org.member(null);
    expect((await api.request('GET', base(org), { token: guest.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('GET', base(org), { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', base(org))).status).toBe(401);
  });
});

describe('GET /orgs/{organizationId}/teams/{teamId}', () => {
  it('returns the team with the caller\'s permissions; 403 guests; 404 missing or in another organization', async () => {
    const org = await newOrg();
    const member = await org.member('comment');
    const team = await createTeam(api, org, { title: 'Reviewers', members: [member.user.id] });
    const res = await api.request('GET', `${base(org)}/${team.id}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'team', id: team.id, title: 'Reviewers', members: 1, spaces: 0, createdAt: team.createdAt, permissions: { admin: false, view: true },
    });
    const guest = await org.member(null);
    expect((await api.request('GET', `${base(org)}/${team.id}`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/missing`, { token: member.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `${base(other)}/${team.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/${team.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/${team.id}`)).status).toBe(401);
  });
});

describe('PATCH /orgs/{organizationId}/teams/{teamId}', () => {
  it('renames the team and the title its members are filtered by', async () => {
    const org = await newOrg();
    const member = await org.member('edit');
    const team = await createTeam(api, org, { title: 'Old Name', members: [member.user.id] });
    const res = await api.request('PATCH', `${base(org)}/${team.id}`, { token: org.admin.token, body: { title: 'New Name' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...team, title: 'New Name' });
    expect(await storedTeam(org, team.id)).toMatchObject({ title: 'New Name', titleLower: 'new name' });
    const byNew = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: member.token, query: { title: 'new' } });
    expect(byNew.body.items.map((i: { team: { title: string } }) => i.team.title)).toEqual(['New Name']);
    const byOld = await api.request('GET', `/orgs/${org.id}/members/${member.user.id}/teams`, { token: member.token, query: { title: 'old' } });
    expect(byOld.body.items).toEqual([]);
    const list = await api.request('GET', base(org), { token: member.token, query: { title: 'NEW' } });
    expect(ids(list.body.items)).toEqual([team.id]);
  });

  it('400 naming the field, 403 non-admins, 404 missing team or foreign organization, 401', async () => {
    const org = await newOrg();
    const team = await createTeam(api, org, { title: 'Stable' });
    for (const [body, field] of [[{}, 'title'], [{ title: '' }, 'title'], [{ title: 'x'.repeat(65) }, 'title'], [{ title: 'T', members: [] }, 'members']] as const) {
      const res = await api.request('PATCH', `${base(org)}/${team.id}`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    const editor = await org.member('edit');
    expect((await api.request('PATCH', `${base(org)}/${team.id}`, { token: editor.token, body: { title: 'No' } })).status).toBe(403);
    expect((await api.request('PATCH', `${base(org)}/missing`, { token: org.admin.token, body: { title: 'No' } })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('PATCH', `${base(org)}/${team.id}`, { token: other.admin.token, body: { title: 'No' } })).status).toBe(404);
    expect((await api.request('PATCH', `${base(org)}/${team.id}`, { body: { title: 'No' } })).status).toBe(401);
    expect(await storedTeam(org, team.id)).toMatchObject({ title: 'Stable' });
  });
});

describe('DELETE /orgs/{organizationId}/teams/{teamId}', () => {
  it('deletes the team and its memberships (205), then answers 204', async () => {
    const org = await newOrg();
    const a = await org.member('edit');
    const b = await org.member('read');
    const team = await createTeam(api, org, { title: 'Temp', members: [a.user.id, b.user.id] });
    const kept = await createTeam(api, org, { title: 'Kept', members: [a.user.id] });
    expect(await memberTeams(org, a.user.id)).toBe(2);
    const res = await api.request('DELETE', `${base(org)}/${team.id}`, { token: org.admin.token });
    expect(res.status).toBe(205);
    expect(res.body).toBeUndefined();
    expect(await storedTeam(org, team.id)).toBeUndefined();
    expect(await storedMembership(org, team.id, a.user.id)).toBeUndefined();
    expect(await storedMembership(org, team.id, b.user.id)).toBeUndefined();
    expect(await memberTeams(org, a.user.id)).toBe(1);
    expect(await memberTeams(org, b.user.id)).toBe(0);
    expect((await queryAll({ index: 'gsi1', partition: memberTeamsPartition(org.id, a.user.id) })).map((r) => r.teamId)).toEqual([kept.id]);
    expect((await api.request('DELETE', `${base(org)}/${team.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('GET', `${base(org)}/${team.id}`, { token: org.admin.token })).status).toBe(404);
  });

  it('403 non-admins, 404 across organizations, 401 without token', async () => {
    const org = await newOrg();
    const team = await createTeam(api, org, { title: 'Stays' });
    const creator = await org.member('create');
    expect((await api.request('DELETE', `${base(org)}/${team.id}`, { token: creator.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('DELETE', `${base(org)}/${team.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `${base(org)}/${team.id}`)).status).toBe(401);
    expect(await storedTeam(org, team.id)).toBeDefined();
  });
});
