import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi, newOrg, presentedUser } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { changeRequestEntity, changeRequestNumberEntity } from '../shared/db/entities/change-request.ts';
import { db } from '../shared/db/client.ts';
import { transact } from '../shared/db/writes.ts';
import { ConditionFailed } from '../shared/db/errors.ts';
import { changeRequestRevisionWrite } from '../shared/commands/change-requests/update.ts';
import { config } from '../shared/config.ts';

const api = useTestApi();

async function createCR(spaceId: string, token: string, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', `/spaces/${spaceId}/change-requests`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function patchCR(spaceId: string, cr: string | number, token: string, body: Record<string, unknown>) {
  return api.request('PATCH', `/spaces/${spaceId}/change-requests/${cr}`, { token, body });
}

async function spaceCounters(spaceId: string, token: string) {
  const res = await api.request('GET', `/spaces/${spaceId}`, { token });
  expect(res.status).toBe(200);
  const { changeRequests, changeRequestsOpen, changeRequestsDraft } = res.body;
  return { changeRequests, changeRequestsOpen, changeRequestsDraft };
}

/** Change request records stored in a space's partition: the change requests, and their numbers. */
async function storedCRs(spaceId: string) {
  const changeRequests = await changeRequestEntity.query.bySpace({ spaceId }).all();
  const numbers = await changeRequestNumberEntity.query.inSpace({ spaceId }).all();
  return [
    ...changeRequests.map((item) => ({ entityType: changeRequestEntity.type, ...item })),
    ...numbers.map((item) => ({ entityType: changeRequestNumberEntity.type, ...item })),
  ];
}

const doc = (text: string) => ({
  object: 'document',
  data: { schemaVersion: 1 },
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});


describe('POST /spaces/{spaceId}/change-requests', () => {
  it('creates a draft change request from the space revision, with every field, and counts it on the space', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const editor = await org.member('edit', 'Editor');
    const res = await api.request('POST', `/spaces/${space.id}/change-requests`, {
      token: editor.token,
      body: { subject: '  Fix typos  ', description: doc('Why'), someFreeProperty: { kept: false } },
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.get('location')).toBe(`${api.url}/v1/spaces/${space.id}/change-requests/${id}`);
    expect(res.body).toEqual({
      object: 'change-request',
      id,
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      description: doc('Why'),
      createdBy: presentedUser(api, editor),
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: {
        app: expect.stringContaining(`/s/${space.id}/`),
        location: `${api.url}/v1/spaces/${space.id}/change-requests/${id}`,
      },
    });

    const stored = await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: id }));
    expect(stored).toMatchObject({
      entityType: 'change-request', id, spaceId: space.id, orgId: org.id, number: 1, status: 'draft', subject: 'Fix typos',
      createdBy: editor.user.id, revision: space.revision, revisionInitial: space.revision, comments: 0,
      contributors: [editor.user.id], requestedReviewers: [],
    });
    // Listed under its organization (the index of the organization's change requests), and under its space.
    expect((await changeRequestEntity.query.byOrg({ orgId: org.id }).all()).map((cr) => cr.id)).toEqual([id]);
    expect((await changeRequestEntity.query.bySpace({ spaceId: space.id }).all()).map((cr) => cr.id)).toEqual([id]);
    expect(stored).not.toHaveProperty('someFreeProperty');
    expect(await getRecord(changeRequestNumberEntity.key({ spaceId: space.id, number: 1 })))
      .toMatchObject({ entityType: 'change-request-number', changeRequestId: id, number: 1 });
    expect(await spaceCounters(space.id, editor.token)).toEqual({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 });
    expect(await getRecord(spaceEntity.key({ spaceId: space.id }))).toMatchObject({ changeRequestNumber: 1 });
  });

  it('defaults the subject to empty and numbers change requests per space', async () => {
    const org = await newOrg();
    const a = await createSpace(api, org);
    const b = await createSpace(api, org);
    const first = await createCR(a.id, org.admin.token);
    expect(first).toMatchObject({ number: 1, subject: '' });
    expect(first).not.toHaveProperty('description');
    expect((await createCR(a.id, org.admin.token)).number).toBe(2);
    expect((await createCR(b.id, org.admin.token)).number).toBe(1);
  });

  it('rejects invalid bodies naming the field, and writes nothing', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    for (const [body, field] of [
      [{ subject: 's'.repeat(101) }, 'subject'],
      [{ subject: 12 }, 'subject'],
      [{ description: 'text' }, 'description'],
      [{ description: { object: 'block', nodes: [] } }, 'description.object'],
      [{ description: { object: 'document', nodes: 'x' } }, 'description.nodes'],
      [{ template: { id: 'faq' } }, 'template'],
    ] as const) {
      const res = await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    const bad = await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, rawBody: '{"subject":' });
    expect(bad.status).toBe(400);
    expect(await storedCRs(space.id)).toEqual([]);
    expect(await spaceCounters(space.id, org.admin.token)).toEqual({ changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });

  it('needs a token, the edit role, an unlocked space, and hides other organizations', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests`, { body: {} })).status).toBe(401);
    for (const role of ['read', 'comment'] as const) {
      const m = await org.member(role);
      const res = await api.request('POST', `/spaces/${space.id}/change-requests`, { token: m.token, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/edit role/);
    }
    const editor = await org.member('edit');
    const locked = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } });
    expect(locked.status).toBe(200);
    for (const token of [editor.token, org.admin.token]) {
      const res = await api.request('POST', `/spaces/${space.id}/change-requests`, { token, body: { subject: 'x' } });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/The space is locked/);
    }
    const other = await newOrg();
    expect((await api.request('POST', `/spaces/${space.id}/change-requests`, { token: other.admin.token, body: {} })).status).toBe(404);
    expect((await api.request('POST', '/spaces/nope/change-requests', { token: org.admin.token, body: {} })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests`, { token: guest.token, body: {} })).status).toBe(404);
    expect(await storedCRs(space.id)).toEqual([]);
  });

  it('gives concurrent creations distinct consecutive numbers and keeps the counters true', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: `CR ${i}` } })));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    const numbers = results.map((r) => r.body.number).sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await spaceCounters(space.id, org.admin.token)).toEqual({ changeRequests: 10, changeRequestsOpen: 0, changeRequestsDraft: 10 });
    const records = await storedCRs(space.id);
    expect(records.filter((r) => r.entityType === 'change-request')).toHaveLength(10);
    expect(records.filter((r) => r.entityType === 'change-request-number')).toHaveLength(10);
    // Every number resolves to the change request created with it.
    for (const r of results) {
      const byNumber = await api.request('GET', `/spaces/${space.id}/change-requests/${r.body.number}`, { token: org.admin.token });
      expect(byNumber.body.id).toBe(r.body.id);
    }
  });

  it('continues after the highest number in use even if the space counter went back', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    await createCR(space.id, org.admin.token);
    await createCR(space.id, org.admin.token);
    // A stale whole-record write of the space would put an old counter back.
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: spaceEntity.key({ spaceId: space.id }),
      UpdateExpression: 'SET changeRequestNumber = :n', ExpressionAttributeValues: { ':n': 1 },
    }));
    expect((await createCR(space.id, org.admin.token)).number).toBe(3);
  });
});

describe('GET /spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  it('reads by id or by number, for anyone who can read the space', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    await createCR(space.id, org.admin.token, { subject: 'One' });
    const two = await createCR(space.id, org.admin.token, { subject: 'Two' });
    const reader = await org.member('read');
    const byId = await api.request('GET', `/spaces/${space.id}/change-requests/${two.id}`, { token: reader.token });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(two);
    expect(Number(byId.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(3);
    const byNumber = await api.request('GET', `/spaces/${space.id}/change-requests/2`, { token: reader.token });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toEqual(two);
    expect(byNumber.body.createdBy).toEqual(presentedUser(api, org.admin));
  });

  it('answers 404 for unknown ids and numbers, other spaces and other organizations, 401 without token', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const otherSpace = await createSpace(api, org);
    const cr = await createCR(space.id, org.admin.token);
    for (const path of [
      `/spaces/${space.id}/change-requests/unknown`,
      `/spaces/${space.id}/change-requests/2`,
      `/spaces/${space.id}/change-requests/0`,
      `/spaces/${space.id}/change-requests/99999999999999`,
      `/spaces/${otherSpace.id}/change-requests/${cr.id}`,
      `/spaces/${otherSpace.id}/change-requests/1`,
    ]) {
      const res = await api.request('GET', path, { token: org.admin.token });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe(404);
    }
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`)).status).toBe(401);
  });

  it('computes outdated at read time against the space revision', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createCR(space.id, org.admin.token);
    expect(cr.outdated).toBe(false);
    // Primary content moves on (as a merge of another change request would do).
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: spaceEntity.key({ spaceId: space.id }),
      UpdateExpression: 'SET revision = :r', ExpressionAttributeValues: { ':r': 'newer-revision' },
    }));
    const later = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token });
    expect(later.body).toMatchObject({ outdated: true, revisionInitial: space.revision });
    const next = await createCR(space.id, org.admin.token);
    expect(next).toMatchObject({ outdated: false, revisionInitial: 'newer-revision', revision: 'newer-revision' });
  });
});

describe('PATCH /spaces/{spaceId}/change-requests/{changeRequestId}', () => {
  it('updates subject, description and status, stores them and keeps the space counters true', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('edit', 'Author');
    const cr = await createCR(space.id, author.token, { subject: 'Start' });
    const res = await patchCR(space.id, cr.id, author.token, { subject: 'Renamed', description: doc('More'), status: 'open' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...cr,
      subject: 'Renamed',
      description: doc('More'),
      status: 'open',
      updatedAt: expect.any(String),
    });
    expect(res.body.updatedAt >= cr.updatedAt).toBe(true);
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id })))
      .toMatchObject({ subject: 'Renamed', description: doc('More'), status: 'open', updatedAt: res.body.updatedAt });
    expect(await spaceCounters(space.id, author.token)).toEqual({ changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });

    // By number; through every settable status.
    for (const [status, counters] of [
      ['archived', { changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 }],
      ['draft', { changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 }],
      ['draft', { changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 }],
      ['open', { changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 }],
    ] as const) {
      const step = await patchCR(space.id, cr.number, author.token, { status });
      expect(step.status).toBe(200);
      expect(step.body).toMatchObject({ id: cr.id, status, subject: 'Renamed' });
      expect(await spaceCounters(space.id, author.token)).toEqual(counters);
    }
  });

  it('rejects invalid bodies naming the field, refuses merged, and writes nothing', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createCR(space.id, org.admin.token, { subject: 'Keep' });
    for (const [body, field, pattern] of [
      [{ subject: 'x'.repeat(101) }, 'subject', /100/],
      [{ status: 'merged' }, 'status', /merge/],
      [{ status: 'closed' }, 'status', /draft, open or archived/],
      [{ description: { object: 'document' } }, 'description', /rich document/],
      [{ links: [] }, 'links', /not an allowed field/],
      [{}, 'body', /at least one/],
    ] as const) {
      const res = await patchCR(space.id, cr.id, org.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
      expect(res.body.error.message).toMatch(pattern);
    }
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id })))
      .toMatchObject({ subject: 'Keep', status: 'draft', updatedAt: cr.updatedAt });
    expect(await spaceCounters(space.id, org.admin.token)).toEqual({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  });

  it('allows the author and reviewers; refuses other editors and readers; hides other organizations', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('edit', 'Author');
    const otherEditor = await org.member('edit', 'Other');
    const reader = await org.member('read');
    const reviewer = await org.member('review');
    const cr = await createCR(space.id, author.token);
    for (const token of [otherEditor.token, reader.token]) {
      const res = await patchCR(space.id, cr.id, token, { subject: 'Nope' });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/author|review/);
    }
    expect((await patchCR(space.id, cr.id, reviewer.token, { subject: 'By reviewer' })).status).toBe(200);
    expect((await patchCR(space.id, cr.id, author.token, { status: 'open' })).status).toBe(200);
    const other = await newOrg();
    expect((await patchCR(space.id, cr.id, other.admin.token, { subject: 'x' })).status).toBe(404);
    expect((await patchCR(space.id, 'missing', org.admin.token, { subject: 'x' })).status).toBe(404);
    expect((await api.request('PATCH', `/spaces/${space.id}/change-requests/${cr.id}`, { body: { subject: 'x' } })).status).toBe(401);
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id })))
      .toMatchObject({ subject: 'By reviewer', status: 'open' });
  });

  it('a merged change request keeps its status (409)', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createCR(space.id, org.admin.token);
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id }),
      UpdateExpression: 'SET #s = :m', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':m': 'merged' },
    }));
    const res = await patchCR(space.id, cr.id, org.admin.token, { status: 'open' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/merged/);
    expect((await patchCR(space.id, cr.id, org.admin.token, { subject: 'Still editable' })).status).toBe(200);
  });

  it('concurrent status changes leave the counters matching the statuses', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const crs = await Promise.all([1, 2, 3].map(() => createCR(space.id, org.admin.token)));
    const statuses = ['open', 'archived', 'draft', 'open', 'archived', 'open'] as const;
    const results = await Promise.all(crs.flatMap((cr) => statuses.map((status) => patchCR(space.id, cr.id, org.admin.token, { status }))));
    for (const r of results) expect([200, 409]).toContain(r.status);
    const final = await Promise.all(crs.map(async (cr) =>
      (await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id })))!.status as string));
    expect(await spaceCounters(space.id, org.admin.token)).toEqual({
      changeRequests: 3,
      changeRequestsOpen: final.filter((s) => s === 'open').length,
      changeRequestsDraft: final.filter((s) => s === 'draft').length,
    });
  });
});

describe('GET /spaces/{spaceId}/change-requests', () => {
  it('lists open change requests by default, newest first, and filters by status and people', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const alice = await org.member('edit', 'Alice');
    const bob = await org.member('edit', 'Bob');
    const a1 = await createCR(space.id, alice.token, { subject: 'a1' });
    const b1 = await createCR(space.id, bob.token, { subject: 'b1' });
    const a2 = await createCR(space.id, alice.token, { subject: 'a2' });
    const archived = await createCR(space.id, bob.token, { subject: 'b2' });
    for (const cr of [a1, b1, a2]) expect((await patchCR(space.id, cr.id, org.admin.token, { status: 'open' })).status).toBe(200);
    expect((await patchCR(space.id, archived.id, bob.token, { status: 'archived' })).status).toBe(200);
    const reader = await org.member('read');
    const list = async (query: Record<string, string | undefined> = {}, token = reader.token) => {
      const res = await api.request('GET', `/spaces/${space.id}/change-requests`, { token, query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const open = await list();
    expect(open.count).toBe(3);
    expect(open.items.map((i: { subject: string }) => i.subject)).toEqual(['a2', 'b1', 'a1']);
    expect(open.items[0]).toEqual({ ...a2, status: 'open', updatedAt: expect.any(String) });
    expect(open.next).toBeUndefined();
    expect((await list({ status: 'archived' })).items.map((i: { id: string }) => i.id)).toEqual([archived.id]);
    expect((await list({ status: 'draft' })).items).toEqual([]);
    expect((await list({ creator: alice.user.id })).items.map((i: { id: string }) => i.id)).toEqual([a2.id, a1.id]);
    expect((await list({ contributor: bob.user.id })).items.map((i: { id: string }) => i.id)).toEqual([b1.id]);
    expect((await list({ creator: bob.user.id, status: 'archived' })).items.map((i: { id: string }) => i.id)).toEqual([archived.id]);
    expect((await list({ requestedReviewer: alice.user.id })).items).toEqual([]);
    expect((await list({ conversationsIssuesCluster: 'cluster' })).items).toEqual([]);
    // Several statuses with a repeated parameter.
    const both = await api.request('GET', `/spaces/${space.id}/change-requests?status=open&status=archived`, { token: reader.token });
    expect(both.body.items.map((i: { subject: string }) => i.subject)).toEqual(['b2', 'a2', 'b1', 'a1']);
  });

  it('pages through every change request with next.page', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    for (let i = 0; i < 5; i++) await createCR(space.id, org.admin.token, { subject: `cr${i}` });
    const seen: number[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await api.request('GET', `/spaces/${space.id}/change-requests`, { token: org.admin.token, query: { status: 'draft', limit: 2, page } });
      expect(res.status).toBe(200);
      expect(res.body.count).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((i: { number: number }) => i.number));
      page = res.body.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    // A cursor pages on the query that made it: with another status filter it is refused.
    const first = await api.request('GET', `/spaces/${space.id}/change-requests`, { token: org.admin.token, query: { status: 'draft', limit: 2 } });
    const other = await api.request('GET', `/spaces/${space.id}/change-requests`, { token: org.admin.token, query: { status: 'open', limit: 2, page: first.body.next.page } });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/^page: /);
  });

  it('validates the query and needs read access', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    for (const [query, field] of [
      [{ status: 'closed' }, 'status'], [{ limit: 0 }, 'limit'], [{ limit: 1001 }, 'limit'], [{ page: 'garbage' }, 'page'],
    ] as const) {
      const res = await api.request('GET', `/spaces/${space.id}/change-requests`, { token: org.admin.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api.request('GET', `/spaces/${space.id}/change-requests`)).status).toBe(401);
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}/change-requests`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', `/spaces/${space.id}/change-requests`, { token: guest.token })).status).toBe(404);
  });
});

describe('GET /orgs/{organizationId}/change-requests', () => {
  it('lists the change requests of every readable space of the organization, newest first', async () => {
    const org = await newOrg();
    const s1 = await createSpace(api, org, { title: 'One' });
    const s2 = await createSpace(api, org, { title: 'Two' });
    const gone = await createSpace(api, org, { title: 'Gone' });
    const editor = await org.member('edit');
    const c1 = await createCR(s1.id, editor.token, { subject: 'c1' });
    const c2 = await createCR(s2.id, org.admin.token, { subject: 'c2' });
    const c3 = await createCR(s1.id, org.admin.token, { subject: 'c3' });
    const c4 = await createCR(gone.id, org.admin.token, { subject: 'c4' });
    for (const [s, cr] of [[s1, c1], [s2, c2], [s1, c3], [gone, c4]]) {
      expect((await patchCR(s.id, cr.id, org.admin.token, { status: 'open' })).status).toBe(200);
    }
    expect((await api.request('DELETE', `/spaces/${gone.id}`, { token: org.admin.token })).status).toBe(205);
    // Another organization's change requests never show.
    const other = await newOrg();
    const otherSpace = await createSpace(api, other);
    await createCR(otherSpace.id, other.admin.token);

    const reader = await org.member('read');
    const res = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { subject: string }) => i.subject)).toEqual(['c3', 'c2', 'c1']);
    expect(res.body.items[1]).toEqual({ ...c2, status: 'open', updatedAt: expect.any(String) });
    const mine = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: reader.token, query: { creator: editor.user.id } });
    expect(mine.body.items.map((i: { id: string }) => i.id)).toEqual([c1.id]);
    const inS2 = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: reader.token, query: { space: s2.id } });
    expect(inS2.body.items.map((i: { id: string }) => i.id)).toEqual([c2.id]);
    const drafts = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: reader.token, query: { status: 'draft' } });
    expect(drafts.body.items).toEqual([]);

    // Pages: one at a time.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const p = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: reader.token, query: { limit: 1, page } });
      expect(p.status).toBe(200);
      seen.push(...p.body.items.map((i: { subject: string }) => i.subject));
      page = p.body.next?.page;
    } while (page);
    expect(seen).toEqual(['c3', 'c2', 'c1']);

    // A guest reads no space: an empty list, not an error.
    const guest = await org.member(null);
    const none = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: guest.token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ items: [], count: 0 });
  });

  it('answers 404 to non-members, 401 without token, 400 for bad filters', async () => {
    const org = await newOrg();
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/change-requests`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/change-requests`)).status).toBe(401);
    const bad = await api.request('GET', `/orgs/${org.id}/change-requests`, { token: org.admin.token, query: { status: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^status: /);
  });
});

describe('changeRequestRevisionWrite (for content edits)', () => {
  it('moves the revision and adds the contributor without writing back a concurrent status change', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createCR(space.id, org.admin.token);
    const key = changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id });
    const read = changeRequestEntity.fromRecord((await getRecord(key))!);
    // A PATCH lands between the content edit's read and its write.
    expect((await patchCR(space.id, cr.id, org.admin.token, { status: 'open', subject: 'Meanwhile' })).status).toBe(200);
    const editor = await org.member('edit');
    const { write, updated } = changeRequestRevisionWrite(read, { revision: 'rev-2', now: new Date().toISOString(), contributor: editor.user.id });
    await transact([write]);
    expect(updated).toMatchObject({ revision: 'rev-2', contributors: [org.admin.user.id, editor.user.id] });
    expect(await getRecord(key)).toMatchObject({
      status: 'open', subject: 'Meanwhile', revision: 'rev-2', contributors: [org.admin.user.id, editor.user.id],
    });
    // A second write from the same stale read fails its condition (a typed storage error; HTTP maps it to 409).
    await expect(transact([changeRequestRevisionWrite(read, { revision: 'rev-3', now: new Date().toISOString() }).write])).rejects.toBeInstanceOf(ConditionFailed);
    const listed = await api.request('GET', `/spaces/${space.id}/change-requests`, { token: org.admin.token, query: { contributor: editor.user.id } });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([cr.id]);
  });
});
