import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg, type TestUser, presentedUser } from './support/api.ts';
import { createChangeRequest, createComment, createPage, createReply, createSpace } from './support/factories.ts';
import { advanceClock } from '../shared/clock.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { changeRequestEntity } from '../shared/db/entities/change-request.ts';
import { commentEntity, commentReplyEntity } from '../shared/db/entities/comment.ts';

/**
 * Comments, replies and their counters over HTTP, in both scopes the interface has: the
 * space's own discussion (`/spaces/{spaceId}/comments`) and a change request's
 * (`/spaces/{spaceId}/change-requests/{changeRequestId}/comments`). Every behaviour the two
 * share runs once per scope (describe.each); what only one scope has follows at the end.
 */
const api = useTestApi();

interface Scope {
  name: string;
  inChangeRequest: boolean;
  /** Whose revision a comment's anchors are checked against, as the 400 messages say it. */
  revisionOwner: string;
  /** DynamoDB round trips of a warm read of one comment (x-db-round-trips). */
  readRoundTrips: number;
}

const scopes: Scope[] = [
  { name: 'the space', inChangeRequest: false, revisionOwner: 'the space\'s', readRoundTrips: 2 },
  { name: 'a change request', inChangeRequest: true, revisionOwner: 'the change request\'s', readRoundTrips: 3 },
];

const spaceComments = (space: { id: string }) => `/spaces/${space.id}/comments`;
const crComments = (space: { id: string }, cr: { id: string } | string) =>
  `/spaces/${space.id}/change-requests/${typeof cr === 'string' ? cr : cr.id}/comments`;
const ids = (items: { id: string }[]) => items.map((i) => i.id);

/** The open-comment counter as the API shows it: `comments` of the space or of the change request. */
async function shownCount(path: string, token: string): Promise<number> {
  const res = await api.request('GET', path, { token });
  expect(res.status, path).toBe(200);
  return res.body.comments;
}

/**
 * An organization with a space and a change request in it, seen from one scope: `base` is the
 * scope's comments path, `otherBase` the other scope's of the same space (the change request's
 * for the space, the space's for a change request), so each test also sees that nothing leaks.
 */
async function scopeFixture(scope: Scope) {
  const org = await newOrg();
  const space = await createSpace(api, org);
  const cr = await createChangeRequest(api, org, space, { subject: 'Review me' });
  const base = scope.inChangeRequest ? crComments(space, cr) : spaceComments(space);
  const otherBase = scope.inChangeRequest ? spaceComments(space) : crComments(space, cr);
  const ownerPath = scope.inChangeRequest ? `/spaces/${space.id}/change-requests/${cr.id}` : `/spaces/${space.id}`;
  const otherOwnerPath = scope.inChangeRequest ? `/spaces/${space.id}` : `/spaces/${space.id}/change-requests/${cr.id}`;
  const token = org.admin.token;
  const f = {
    org, space, cr, base, otherBase,
    /** The revision a comment posted now is anchored on: the scope's current one. */
    revision: async () => (await api.request('GET', ownerPath, { token })).body.revision as string,
    /** `target` of a comment of this scope, without its anchors. */
    target: async () => ({ space: space.id, revision: await f.revision(), ...(scope.inChangeRequest ? { changeRequest: cr.id } : {}) }),
    count: (as = token) => shownCount(ownerPath, as),
    otherCount: (as = token) => shownCount(otherOwnerPath, as),
    /** The counter as stored on the space or the change request. */
    storedCount: async () => (scope.inChangeRequest
      ? (await changeRequestEntity.get({ spaceId: space.id, changeRequestId: cr.id }, { consistent: true }))!.comments
      : (await spaceEntity.get({ spaceId: space.id }, { consistent: true }))!.comments),
    /** The id of the first page of the scope's content (the space's first page, which the change request holds too). */
    firstPage: async () => (await api.request('GET', `${ownerPath}/content/pages`, { token })).body.pages[0].id as string,
    /** A new page with a paragraph in the scope's content (a change request merged at once, for the space). */
    addPage: async () => {
      const page = await createPage(api, org, space, scope.inChangeRequest ? { changeRequest: cr } : {});
      return { pageId: page.id as string, blockKey: page.document.nodes[0].key as string, revision: await f.revision() };
    },
    post: (body: Record<string, unknown>, as = token) => api.request('POST', base, { token: as, body }),
    postOk: (as = token, body: Record<string, unknown> = { body: { markdown: 'Looks good' } }) =>
      createComment(api, org, space, { ...body, ...(scope.inChangeRequest ? { changeRequest: cr } : {}) }, as),
    put: (commentId: string, body: Record<string, unknown>, as = token) => api.request('PUT', `${base}/${commentId}`, { token: as, body }),
    list: (query: Record<string, string | number> = {}, as = token) => api.request('GET', base, { token: as, query }),
    stored: (commentId: string) => commentEntity.get({ spaceId: space.id, commentId }, { consistent: true }),
    storedReply: (commentId: string, replyId: string) => commentReplyEntity.get({ spaceId: space.id, commentId, replyId }, { consistent: true }),
    /** Every stored reply of a comment (the partition query the comment's deletion uses). */
    storedReplies: (commentId: string) => commentReplyEntity.query.ofComment({ spaceId: space.id, commentId }).all(),
  };
  return f;
}

type Fixture = Awaited<ReturnType<typeof scopeFixture>>;

/** Both scopes' lists are empty: nothing was written. */
async function expectNoComments(f: Fixture) {
  for (const path of [f.base, f.otherBase]) {
    const res = await api.request('GET', path, { token: f.org.admin.token, query: { status: 'all' } });
    expect(res.status).toBe(200);
    expect(res.body.items, path).toEqual([]);
  }
}

describe.each(scopes)('comments of $name', (scope) => {
  describe('POST (base)', () => {
    it('posts a comment with every field, stores it and counts it in its own scope only', async () => {
      const f = await scopeFixture(scope);
      const { org, space } = f;
      const res = await f.post({ body: { markdown: 'Please **review** this.' } });
      expect(res.status).toBe(200);
      const id = res.body.id;
      const target = await f.target();
      expect(res.body).toEqual({
        object: 'comment',
        id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
        postedBy: presentedUser(api, org.admin),
        postedAt: expect.any(String),
        reactions: [],
        replies: 0,
        repliers: [],
        body: { markdown: 'Please **review** this.' },
        target,
        urls: { location: `${api.url}/v1${f.base}/${id}` },
        permissions: { view: true, edit: true, reply: true, delete: true },
        status: 'open',
      });
      expect(new Date(res.body.postedAt).toISOString()).toBe(res.body.postedAt);
      expect(await f.stored(id)).toMatchObject({
        id, spaceId: space.id, postedBy: org.admin.user.id, markdown: 'Please **review** this.',
        status: 'open', replies: 0, version: 1,
        target: { revision: target.revision, ...(scope.inChangeRequest ? { changeRequest: f.cr.id } : {}) },
      });
      // Listed in its scope only, and (not anchored on a page) under no page.
      expect(ids((await f.list()).body.items)).toEqual([id]);
      expect((await api.request('GET', f.otherBase, { token: org.admin.token })).body.items).toEqual([]);
      expect((await f.list({ targetPage: await f.firstPage() })).body.items).toEqual([]);
      expect(await f.count()).toBe(1);
      expect(await f.storedCount()).toBe(1);
      expect(await f.otherCount()).toBe(0);
      // The same comment reads back identically.
      const get = await api.request('GET', `${f.base}/${id}`, { token: org.admin.token });
      expect(get.status).toBe(200);
      expect(get.body).toEqual(res.body);
      // Token, space (change request) and comment in one batch (org and membership once seen), users in a second.
      const warm = await api.request('GET', `${f.base}/${id}`, { token: org.admin.token });
      expect(Number(warm.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(3);
    });

    it('anchors a comment on a page, a block node and a table cell of the scope\'s current revision', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const firstPage = await f.firstPage();
      const onFirst = await f.postOk(org.admin.token, { page: firstPage, body: { markdown: 'On the page' } });
      expect(onFirst.target).toEqual({ ...(await f.target()), page: { id: firstPage } });
      expect(ids((await f.list({ targetPage: firstPage })).body.items)).toEqual([onFirst.id]);

      const { pageId, blockKey, revision } = await f.addPage();
      const target = { ...(await f.target()), revision };
      const onPage = await f.postOk(org.admin.token, { page: pageId, body: { markdown: 'On the new page' } });
      expect(onPage.target).toEqual({ ...target, page: { id: pageId } });
      const onNode = await f.postOk(org.admin.token, { page: pageId, node: blockKey, body: { markdown: 'On the block' } });
      expect(onNode.target).toEqual({ ...target, page: { id: pageId }, node: { id: blockKey } });
      const onCell = await f.postOk(org.admin.token, {
        page: pageId, node: blockKey, tableCell: { record: 'r1', definition: 'd1' }, body: { markdown: 'On a cell' },
      });
      expect(onCell.target).toEqual({ ...target, page: { id: pageId }, node: { id: blockKey }, tableCell: { record: 'r1', definition: 'd1' } });
      // The page's list holds its comments, oldest first with order=asc; the other scope has none.
      expect(ids((await f.list({ targetPage: pageId, order: 'asc' })).body.items)).toEqual([onPage.id, onNode.id, onCell.id]);
      expect((await api.request('GET', f.otherBase, { token: org.admin.token, query: { targetPage: pageId } })).body.items).toEqual([]);
      expect(await f.count()).toBe(4);
      expect(await f.otherCount()).toBe(0);
    });

    it('accepts the empty body {} of the public interface', async () => {
      const f = await scopeFixture(scope);
      const empty = await f.postOk(f.org.admin.token, { body: {} });
      expect(empty.body).toEqual({ markdown: '' });
      const onPage = await f.postOk(f.org.admin.token, { page: await f.firstPage(), body: {} });
      expect(onPage.body).toEqual({ markdown: '' });
    });

    it('refuses invalid bodies naming the field, and writes nothing', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const pageId = await f.firstPage();
      const { pageId: newPage, blockKey } = await f.addPage();
      const cases: [Record<string, unknown> | undefined, string][] = [
        [undefined, 'body: is required'],
        [{}, 'body: is required'],
        [{ body: 'text' }, 'body: '],
        [{ body: { markdown: '' } }, 'body.markdown: '],
        [{ body: { markdown: 42 } }, 'body.markdown: '],
        [{ body: { markdown: 'x'.repeat(100 * 1024 + 1) } }, 'body.markdown: must be at most 100 KB'],
        [{ body: { markdown: 'é'.repeat(60 * 1024) } }, 'body.markdown: must be at most 100 KB'],
        [{ body: { document: { object: 'document', nodes: [] } } }, 'body.document: is not an allowed field'],
        [{ body: { markdown: 'x' }, colour: 'red' }, 'colour: is not an allowed field'],
        [{ body: { markdown: 'x' }, changeRequest: 'cr' }, 'changeRequest: is not an allowed field'],
        [{ body: { markdown: 'x' }, page: 'no-such-page' }, `page: no page no-such-page in ${scope.revisionOwner} current revision`],
        [{ body: { markdown: 'x' }, node: 'n1' }, 'node: requires page'],
        [{ body: { markdown: 'x' }, node: blockKey }, 'node: requires page'],
        [{ body: { markdown: 'x' }, page: pageId, node: 'no-such-block' }, `node: no block with key no-such-block on page ${pageId}`],
        [{ body: { markdown: 'x' }, page: newPage, node: 'nope' }, `node: no block with key nope on page ${newPage}`],
        [{ body: { markdown: 'x' }, page: pageId, tableCell: { record: 'r', definition: 'd' } }, 'tableCell: requires node'],
        [{ body: { markdown: 'x' }, page: pageId, node: 'n', tableCell: { record: 'r' } }, 'tableCell.definition: '],
      ];
      for (const [body, message] of cases) {
        const res = await api.request('POST', f.base, { token: org.admin.token, body });
        expect(res.status, JSON.stringify(body)?.slice(0, 100)).toBe(400);
        expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
      }
      await expectNoComments(f);
      expect(await f.count()).toBe(0);
      expect(await f.otherCount()).toBe(0);
      // Exactly 100 KB is fine.
      await f.postOk(org.admin.token, { body: { markdown: 'x'.repeat(100 * 1024) } });
    });

    it('needs a token, the comment role, and hides other organizations\' spaces', async () => {
      const f = await scopeFixture(scope);
      const { org, space } = f;
      const body = { body: { markdown: 'x' } };
      expect((await api.request('POST', f.base, { body })).status).toBe(401);
      const reader = await org.member('read');
      const denied = await f.post(body, reader.token);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ error: { code: 403, message: 'Posting a comment requires the comment role on the space' } });
      const commenter = await org.member('comment');
      expect((await f.postOk(commenter.token)).postedBy).toEqual(presentedUser(api, commenter));
      const other = await newOrg();
      expect((await f.post(body, other.admin.token)).status).toBe(404);
      expect((await api.request('POST', f.base.replace(space.id, 'no-such-space'), { token: org.admin.token, body })).status).toBe(404);
      const guest = await org.member(null);
      expect((await f.post(body, guest.token)).status).toBe(404);
      expect((await f.list()).body.items).toHaveLength(1);
      expect(await f.count()).toBe(1);
    });
  });

  describe('comments and roles over time', () => {
    it('allows discussion on a locked space; a demoted author can no longer change their comment', async () => {
      const f = await scopeFixture(scope);
      const { org, space } = f;
      expect((await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } })).status).toBe(200);
      const author = await org.member('comment');
      const comment = await f.postOk(author.token);
      expect(comment.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
      expect((await api.request('PATCH', `/orgs/${org.id}/members/${author.user.id}`, { token: org.admin.token, body: { role: 'read' } })).status).toBe(200);
      const read = await api.request('GET', `${f.base}/${comment.id}`, { token: author.token });
      expect(read.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      expect((await f.put(comment.id, { body: { markdown: 'Changed' } }, author.token)).status).toBe(403);
      expect((await f.put(comment.id, { resolved: true }, author.token)).status).toBe(403);
      expect((await api.request('DELETE', `${f.base}/${comment.id}`, { token: author.token })).status).toBe(403);
      expect(await f.stored(comment.id)).toMatchObject({ markdown: 'Looks good', status: 'open', version: 1 });
    });
  });

  describe('GET (base)/{commentId}', () => {
    it('reads a comment with the caller\'s permissions, in few round trips', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const commenter = await org.member('comment');
      const reader = await org.member('read');
      const comment = await f.postOk(commenter.token);
      const path = `${f.base}/${comment.id}`;
      const asReader = await api.request('GET', path, { token: reader.token });
      expect(asReader.status).toBe(200);
      expect(asReader.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      const asAdmin = await api.request('GET', path, { token: org.admin.token, query: { format: 'document' } });
      expect(asAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
      expect(asAdmin.body.body).toEqual({ markdown: 'Looks good' });
      expect((await api.request('GET', path, { token: commenter.token, query: { format: 'markdown' } })).body.permissions)
        .toEqual({ view: true, edit: true, reply: true, delete: true });
      const warm = await api.request('GET', path, { token: reader.token });
      // Token, space, (change request,) comment (and, once seen, org and membership) in one BatchGet; the users in a second.
      expect(Number(warm.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(scope.readRoundTrips);
    });

    it('404 for an unknown comment, another space\'s comment or another organization; 400 for a bad format', async () => {
      const f = await scopeFixture(scope);
      const { org, space } = f;
      const otherSpace = await createSpace(api, org);
      const comment = await f.postOk();
      expect((await api.request('GET', `${f.base}/nope`, { token: org.admin.token })).status).toBe(404);
      expect((await api.request('GET', `${f.base.replace(space.id, otherSpace.id)}/${comment.id}`, { token: org.admin.token })).status).toBe(404);
      const other = await newOrg();
      expect((await api.request('GET', `${f.base}/${comment.id}`, { token: other.admin.token })).status).toBe(404);
      expect((await api.request('GET', `${f.base}/${comment.id}`)).status).toBe(401);
      const bad = await api.request('GET', `${f.base}/${comment.id}`, { token: org.admin.token, query: { format: 'html' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('format: must be markdown or document');
    });
  });

  describe('GET (base)', () => {
    let f: Fixture;
    let org: TestOrg;
    let pageId: string;
    let alice: TestUser;
    let bob: TestUser;
    const posted: { id: string; by: string; page: boolean; resolved: boolean }[] = [];

    beforeAll(async () => {
      f = await scopeFixture(scope);
      org = f.org;
      ({ pageId } = await f.addPage());
      alice = await org.member('comment', 'Alice');
      bob = await org.member('comment', 'Bob');
      // Oldest first: a1 (no page), b1 (page), a2 (page, resolved), b2 (no page), admin1 (page)
      const plan: [TestUser, boolean, boolean][] = [[alice, false, false], [bob, true, false], [alice, true, true], [bob, false, false], [org.admin, true, false]];
      for (const [user, onPage, resolved] of plan) {
        advanceClock(1000);
        const comment = await f.postOk(user.token, { body: { markdown: `by ${user.user.displayName}` }, ...(onPage ? { page: pageId } : {}) });
        if (resolved) expect((await f.put(comment.id, { resolved: true }, user.token)).status).toBe(200);
        posted.push({ id: comment.id, by: user.user.id, page: onPage, resolved });
      }
      // A comment of the other scope (on no page: the space's comments cannot name a change request's page) never shows in this scope's lists.
      advanceClock(1000);
      expect((await api.request('POST', f.otherBase, { token: org.admin.token, body: { body: { markdown: 'elsewhere' } } })).status).toBe(200);
    });

    it('lists newest first by default, oldest first with order=asc, every item presented', async () => {
      const desc = await f.list();
      expect(desc.status).toBe(200);
      expect(desc.body.count).toBe(5);
      expect(desc.body.next).toBeUndefined();
      expect(ids(desc.body.items)).toEqual(posted.map((p) => p.id).reverse());
      const get = await api.request('GET', `${f.base}/${posted[2]!.id}`, { token: org.admin.token });
      expect(desc.body.items[2]).toEqual(get.body);
      expect(desc.body.items[2]).toMatchObject({ status: 'resolved', resolvedBy: presentedUser(api, alice), resolvedAt: expect.any(String) });
      const asc = await f.list({ order: 'asc' });
      expect(ids(asc.body.items)).toEqual(posted.map((p) => p.id));
      expect(await f.count()).toBe(4);
      expect(await f.otherCount()).toBe(1);
    });

    it('filters by status, target page and authors, combined', async () => {
      const open = await f.list({ status: 'open' });
      expect(ids(open.body.items)).toEqual(posted.filter((p) => !p.resolved).map((p) => p.id).reverse());
      const resolved = await f.list({ status: 'resolved' });
      expect(ids(resolved.body.items)).toEqual([posted[2]!.id]);
      expect(ids((await f.list({ status: 'all' })).body.items)).toHaveLength(5);
      const onPage = await f.list({ targetPage: pageId, order: 'asc' });
      expect(ids(onPage.body.items)).toEqual(posted.filter((p) => p.page).map((p) => p.id));
      expect((await f.list({ targetPage: 'another-page' })).body.items).toEqual([]);
      const byAlice = await f.list({ authors: alice.user.id });
      expect(ids(byAlice.body.items)).toEqual(posted.filter((p) => p.by === alice.user.id).map((p) => p.id).reverse());
      // Repeated parameters, as the official client sends arrays, and comma-separated values.
      const repeated = await api.request('GET', `${f.base}?authors=${alice.user.id}&authors=${bob.user.id}&order=asc`, { token: org.admin.token });
      expect(ids(repeated.body.items)).toEqual(posted.filter((p) => p.by !== org.admin.user.id).map((p) => p.id));
      const comma = await f.list({ authors: `${alice.user.id},${bob.user.id}`, order: 'asc' });
      expect(ids(comma.body.items)).toEqual(ids(repeated.body.items));
      const brackets = await api.request('GET', `${f.base}?authors[]=${bob.user.id}`, { token: org.admin.token });
      expect(ids(brackets.body.items)).toEqual(posted.filter((p) => p.by === bob.user.id).map((p) => p.id).reverse());
      const combined = await f.list({ authors: alice.user.id, targetPage: pageId, status: 'open' });
      expect(combined.body.items).toEqual([]);
      const combined2 = await f.list({ authors: bob.user.id, targetPage: pageId, status: 'open' });
      expect(ids(combined2.body.items)).toEqual([posted[1]!.id]);
      const combined3 = await f.list({ authors: `${bob.user.id},${org.admin.user.id}`, targetPage: pageId, status: 'open', order: 'asc' });
      expect(ids(combined3.body.items)).toEqual([posted[1]!.id, posted[4]!.id]);
    });

    it('paginates with opaque cursors, also under filters', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await f.list({ limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(res.body.items.length);
        seen.push(...ids(res.body.items));
        page = res.body.next?.page;
        pages++;
      } while (page);
      expect(pages).toBe(3);
      expect(seen).toEqual(posted.map((p) => p.id).reverse());
      const first = await f.list({ limit: 2, status: 'open', order: 'asc' });
      expect(ids(first.body.items)).toEqual([posted[0]!.id, posted[1]!.id]);
      const second = await f.list({ limit: 2, status: 'open', order: 'asc', page: first.body.next.page });
      expect(ids(second.body.items)).toEqual([posted[3]!.id, posted[4]!.id]);
      // A cursor belongs to its query: the page filter reads another partition, and so does the other scope's list.
      const foreign = await f.list({ targetPage: pageId, page: first.body.next.page });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.message).toMatch(/^page: /);
      const otherScope = await api.request('GET', f.otherBase, { token: org.admin.token, query: { page: first.body.next.page } });
      expect(otherScope.status).toBe(400);
      expect(otherScope.body.error.message).toMatch(/^page: /);
    });

    it('rejects bad query values naming the parameter, and hides the list from outsiders', async () => {
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'], [{ limit: 1001 }, 'limit'], [{ order: 'newest' }, 'order'], [{ status: 'closed' }, 'status'],
        [{ format: 'html' }, 'format'], [{ page: 'garbage' }, 'page'], [{ authors: Array.from({ length: 101 }, (_, i) => `u${i}`).join(',') }, 'authors'],
      ] as const) {
        const res = await f.list(query as Record<string, string | number>);
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
      }
      expect((await api.request('GET', f.base)).status).toBe(401);
      const other = await newOrg();
      expect((await f.list({}, other.admin.token)).status).toBe(404);
      const reader = await org.member('read');
      const asReader = await f.list({}, reader.token);
      expect(asReader.status).toBe(200);
      expect(asReader.body.items[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    });
  });

  describe('PUT (base)/{commentId}', () => {
    it('resolves and reopens, setting and clearing resolvedAt/resolvedBy and keeping the open count', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const author = await org.member('comment');
      const comment = await f.postOk(author.token);
      await f.postOk(author.token);
      expect(await f.count()).toBe(2);

      const resolved = await f.put(comment.id, { resolved: true }, author.token);
      expect(resolved.status).toBe(200);
      expect(resolved.body).toEqual({
        ...comment, status: 'resolved', resolvedAt: expect.any(String), resolvedBy: presentedUser(api, author),
      });
      expect(await f.count()).toBe(1);
      expect(await f.stored(comment.id)).toMatchObject({ status: 'resolved', resolvedBy: author.user.id, version: 2 });

      // Resolving a resolved comment changes nothing.
      const again = await f.put(comment.id, { resolved: true }, author.token);
      expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
      expect(await f.count()).toBe(1);

      // A space admin may reopen someone else's comment.
      const reopened = await f.put(comment.id, { resolved: false });
      expect(reopened.status).toBe(200);
      expect(reopened.body).toEqual({ ...comment, permissions: { view: true, edit: false, reply: true, delete: true } });
      expect(reopened.body).not.toHaveProperty('resolvedAt');
      const stored = await f.stored(comment.id);
      expect(stored).toMatchObject({ status: 'open' });
      expect(stored).not.toHaveProperty('resolvedAt');
      expect(stored).not.toHaveProperty('resolvedBy');
      expect(await f.count()).toBe(2);

      // Resolved by the admin this time.
      const byAdmin = await f.put(comment.id, { resolved: true });
      expect(byAdmin.body.resolvedBy).toEqual(presentedUser(api, org.admin));
      expect(await f.count()).toBe(1);
    });

    it('keeps the scope\'s counter true: post +1, resolve -1, reopen +1, delete open -1; the other scope\'s never moves', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const author = await org.member('comment', 'Author');
      expect((await api.request('POST', f.otherBase, { token: org.admin.token, body: { body: { markdown: 'elsewhere' } } })).status).toBe(200);
      const a = await f.postOk(author.token);
      const b = await f.postOk(author.token);
      expect(await f.count()).toBe(2);
      expect((await f.put(a.id, { resolved: true }, author.token)).status).toBe(200);
      expect(await f.count()).toBe(1);
      expect((await f.put(a.id, { resolved: false })).status).toBe(200);
      expect(await f.count()).toBe(2);
      // Deleting an open comment -1; a resolved one leaves the count alone.
      expect((await api.request('DELETE', `${f.base}/${b.id}`, { token: author.token })).status).toBe(204);
      expect(await f.stored(b.id)).toBeUndefined();
      expect(await f.count()).toBe(1);
      await f.put(a.id, { resolved: true }, author.token);
      expect(await f.count()).toBe(0);
      expect((await api.request('DELETE', `${f.base}/${a.id}`, { token: author.token })).status).toBe(204);
      expect(await f.count()).toBe(0);
      expect(await f.storedCount()).toBe(0);
      expect(await f.otherCount()).toBe(1);
    });

    it('lets only the author edit the body (editedAt), and only the author or an admin resolve', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const author = await org.member('comment');
      const someone = await org.member('edit');
      const comment = await f.postOk(author.token, { body: { markdown: 'First draft' } });
      advanceClock(1000);
      const edited = await f.put(comment.id, { body: { markdown: 'Second draft' } }, author.token);
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({ ...comment, body: { markdown: 'Second draft' }, editedAt: expect.any(String) });
      expect(edited.body.editedAt > comment.postedAt).toBe(true);
      expect(await f.stored(comment.id)).toMatchObject({ markdown: 'Second draft', editedAt: edited.body.editedAt });

      for (const who of [someone, org.admin]) {
        const denied = await f.put(comment.id, { body: { markdown: 'Not mine' } }, who.token);
        expect(denied.status).toBe(403);
        expect(denied.body.error.message).toBe('Only its author can edit the body of a comment');
      }
      const notResolver = await f.put(comment.id, { resolved: true }, someone.token);
      expect(notResolver.status).toBe(403);
      const reader = await org.member('read');
      expect((await f.put(comment.id, { addedReactions: ['👍'] }, reader.token)).status).toBe(403);
      // Any commenter reacts.
      const reacted = await f.put(comment.id, { addedReactions: ['👍'] }, someone.token);
      expect(reacted.body.reactions).toEqual([{ emoji: '👍', count: 1, users: [{ user: presentedUser(api, someone), reactedAt: expect.any(String) }] }]);
      expect(await f.stored(comment.id)).toMatchObject({ markdown: 'Second draft', reactions: [{ emoji: '👍', users: [{ userId: someone.user.id }] }] });
      // The body {} empties it.
      const emptied = await f.put(comment.id, { body: {} }, author.token);
      expect(emptied.body.body).toEqual({ markdown: '' });
      expect(await f.stored(comment.id)).toMatchObject({ markdown: '', status: 'open' });
    });

    it('adds and removes reactions per user, with counts and users in reaction order', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const alice = await org.member('comment', 'Alice');
      const bob = await org.member('comment', 'Bob');
      const comment = await f.postOk();
      const a = await f.put(comment.id, { addedReactions: ['👍', '🎉'] }, alice.token);
      expect(a.status).toBe(200);
      const b = await f.put(comment.id, { addedReactions: ['👍', '1f680'] }, bob.token);
      expect(b.body.reactions).toEqual([
        { emoji: '👍', count: 2, users: [{ user: presentedUser(api, alice), reactedAt: expect.any(String) }, { user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
        { emoji: '🎉', count: 1, users: [{ user: presentedUser(api, alice), reactedAt: a.body.reactions[1].users[0].reactedAt }] },
        { emoji: '1f680', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
      ]);
      // Adding twice counts once; removing a reaction the caller does not have changes nothing.
      const twice = await f.put(comment.id, { addedReactions: ['👍'], removedReactions: ['1f680'] }, alice.token);
      expect(twice.body.reactions).toEqual(b.body.reactions);
      const removed = await f.put(comment.id, { removedReactions: ['👍', '🎉'] }, alice.token);
      expect(removed.body.reactions).toEqual([
        { emoji: '👍', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
        { emoji: '1f680', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
      ]);
      expect((await f.stored(comment.id))!.reactions).toEqual([
        { emoji: '👍', users: [{ userId: bob.user.id, reactedAt: expect.any(String) }] },
        { emoji: '1f680', users: [{ userId: bob.user.id, reactedAt: expect.any(String) }] },
      ]);
      // Reactions do not change the body, the status or editedAt.
      expect(removed.body).not.toHaveProperty('editedAt');
      expect(removed.body.status).toBe('open');
    });

    it('refuses invalid updates naming the field and writes nothing; 401 and 404 where it must', async () => {
      const f = await scopeFixture(scope);
      const comment = await f.postOk();
      for (const [body, message] of [
        [{}, 'body: must set at least one of'],
        [{ resolved: 'yes' }, 'resolved: must be a boolean'],
        [{ body: { markdown: '' } }, 'body.markdown: '],
        [{ addedReactions: 'thumbs' }, 'addedReactions: must be an array of emoji'],
        [{ addedReactions: ['smile'] }, 'addedReactions.0: must be an emoji'],
        [{ addedReactions: ['👍', '123'] }, 'addedReactions.1: must be an emoji'],
        [{ removedReactions: ['x'.repeat(51)] }, 'removedReactions.0: must be at most 50 characters'],
        [{ addedReactions: ['👍'], removedReactions: ['👍'] }, 'removedReactions: must not name an emoji that addedReactions adds'],
        [{ status: 'resolved' }, 'status: is not an allowed field'],
      ] as const) {
        const res = await f.put(comment.id, body as Record<string, unknown>);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
      }
      expect(await f.stored(comment.id)).toMatchObject({ version: 1, reactions: [], status: 'open', markdown: 'Looks good' });
      // At most 50 different emoji on one comment.
      const fifty = Array.from({ length: 50 }, (_, i) => (0x1f600 + i).toString(16));
      expect((await f.put(comment.id, { addedReactions: fifty })).body.reactions).toHaveLength(50);
      const tooMany = await f.put(comment.id, { addedReactions: ['1f680'] });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.message).toBe('addedReactions: a comment carries at most 50 different emoji');
      expect((await f.put(comment.id, { addedReactions: ['1f600'] })).status).toBe(200);
      expect((await f.put('unknown', { resolved: true })).status).toBe(404);
      const other = await newOrg();
      expect((await f.put(comment.id, { resolved: true }, other.admin.token)).status).toBe(404);
      expect((await api.request('PUT', `${f.base}/${comment.id}`, { body: { resolved: true } })).status).toBe(401);
    });

    it('keeps every reaction when many users react at once, and the count when resolutions race', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const comment = await f.postOk();
      const users = await Promise.all(Array.from({ length: 6 }, (_, i) => org.member('comment', `Reactor ${i}`)));
      const results = await Promise.all(users.map((u, i) => f.put(comment.id, { addedReactions: i % 2 ? ['👍', '🎉'] : ['👍'] }, u.token)));
      expect(results.map((r) => r.status)).toEqual(users.map(() => 200));
      const final = await api.request('GET', `${f.base}/${comment.id}`, { token: org.admin.token });
      const thumbs = final.body.reactions.find((r: { emoji: string }) => r.emoji === '👍');
      expect(thumbs.count).toBe(6);
      expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id).sort()).toEqual(users.map((u) => u.user.id).sort());
      expect(final.body.reactions.find((r: { emoji: string }) => r.emoji === '🎉').count).toBe(3);
      // Concurrent resolve and reopen never leave the open count wrong.
      const flips = await Promise.all([true, false, true, false, true].map((resolved) => f.put(comment.id, { resolved })));
      expect(flips.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const status = (await f.stored(comment.id))!.status;
      expect(await f.count()).toBe(status === 'open' ? 1 : 0);
    });
  });

  describe('replies', () => {
    it('posts replies, keeping the comment\'s replies and repliers true', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const alice = await org.member('comment', 'Alice');
      const bob = await org.member('comment', 'Bob');
      const comment = await f.postOk();
      const repliesPath = `${f.base}/${comment.id}/replies`;
      const first = await api.request('POST', repliesPath, { token: alice.token, body: { body: { markdown: 'Agreed' } } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        object: 'comment-reply',
        id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
        postedBy: presentedUser(api, alice),
        postedAt: expect.any(String),
        reactions: [],
        body: { markdown: 'Agreed' },
        urls: { location: `${api.url}/v1${repliesPath}/${first.body.id}` },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      expect(await f.storedReply(comment.id, first.body.id)).toMatchObject({
        commentId: comment.id, postedBy: alice.user.id, markdown: 'Agreed',
      });
      advanceClock(1000);
      await createReply(api, org, comment, { body: { markdown: 'Me too' } }, bob.token);
      advanceClock(1000);
      const third = await createReply(api, org, comment, { body: {} }, alice.token);
      expect(third.body).toEqual({ markdown: '' });
      const read = await api.request('GET', `${f.base}/${comment.id}`, { token: org.admin.token });
      expect(read.body.replies).toBe(3);
      expect(read.body.repliers).toEqual([
        { user: presentedUser(api, alice), count: 2, updatedAt: third.postedAt },
        { user: presentedUser(api, bob), count: 1, updatedAt: expect.any(String) },
      ]);
      // Replies do not change the open counts.
      expect(await f.count()).toBe(1);
      expect(await f.otherCount()).toBe(0);
    });

    it('posts, reads, edits and lists replies (oldest first, paginated)', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const comment = await f.postOk();
      const path = `${f.base}/${comment.id}`;
      const alice = await org.member('comment', 'Alice');
      const bob = await org.member('comment', 'Bob');
      const first = await createReply(api, org, comment, { body: { markdown: 'One' } }, alice.token);
      advanceClock(1000);
      const second = await createReply(api, org, comment, { body: { markdown: 'Two' } }, bob.token);
      advanceClock(1000);
      const third = await createReply(api, org, comment, { body: { markdown: 'Three' } }, alice.token);

      const get = await api.request('GET', `${path}/replies/${second.id}`, { token: alice.token });
      expect(get.status).toBe(200);
      expect(get.body).toEqual({ ...second, permissions: { view: true, edit: false, reply: true, delete: false } });
      const edited = await api.request('PUT', `${path}/replies/${second.id}`, { token: bob.token, body: { body: { markdown: 'Two!' }, addedReactions: ['🎉'] } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ body: { markdown: 'Two!' }, editedAt: expect.any(String), reactions: [{ emoji: '🎉', count: 1 }] });
      expect((await api.request('PUT', `${path}/replies/${second.id}`, { token: alice.token, body: { body: { markdown: 'No' } } })).status).toBe(403);

      const list = await api.request('GET', `${path}/replies`, { token: bob.token, query: { format: 'markdown' } });
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
      expect(list.body.next).toBeUndefined();
      expect(ids(list.body.items)).toEqual([first.id, second.id, third.id]);
      expect(list.body.items[1]).toEqual({ ...edited.body, permissions: { view: true, edit: true, reply: true, delete: true } });
      const page1 = await api.request('GET', `${path}/replies`, { token: bob.token, query: { limit: 2 } });
      expect(ids(page1.body.items)).toEqual([first.id, second.id]);
      const page2 = await api.request('GET', `${path}/replies`, { token: bob.token, query: { limit: 2, page: page1.body.next.page } });
      expect(ids(page2.body.items)).toEqual([third.id]);
      expect(page2.body.next).toBeUndefined();

      const read = await api.request('GET', path, { token: org.admin.token });
      expect(read.body.replies).toBe(3);
      expect(read.body.repliers).toEqual([
        { user: presentedUser(api, alice), count: 2, updatedAt: third.postedAt },
        { user: presentedUser(api, bob), count: 1, updatedAt: second.postedAt },
      ]);
      expect(await f.count()).toBe(1);
      expect(await f.otherCount()).toBe(0);
    });

    it('reads a reply; edits its body by the author only; reactions by any commenter', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const alice = await org.member('comment', 'Alice');
      const bob = await org.member('comment', 'Bob');
      const comment = await f.postOk();
      const reply = await createReply(api, org, comment, {}, alice.token);
      const path = `${f.base}/${comment.id}/replies/${reply.id}`;
      const get = await api.request('GET', path, { token: bob.token, query: { format: 'markdown' } });
      expect(get.status).toBe(200);
      expect(get.body).toEqual({ ...reply, permissions: { view: true, edit: false, reply: true, delete: false } });
      expect(Number(get.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(3);

      const edited = await api.request('PUT', path, { token: alice.token, body: { body: { markdown: 'Agreed, with a nit' } } });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({ ...reply, body: { markdown: 'Agreed, with a nit' }, editedAt: expect.any(String) });
      const denied = await api.request('PUT', path, { token: bob.token, body: { body: { markdown: 'Hijack' } } });
      expect(denied.status).toBe(403);
      const adminDenied = await api.request('PUT', path, { token: org.admin.token, body: { body: { markdown: 'Hijack' } } });
      expect(adminDenied.status).toBe(403);
      const reacted = await api.request('PUT', path, { token: bob.token, body: { addedReactions: ['❤️'] } });
      expect(reacted.status).toBe(200);
      expect(reacted.body.reactions).toEqual([{ emoji: '❤️', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] }]);
      const unreacted = await api.request('PUT', path, { token: bob.token, body: { removedReactions: ['❤️'] } });
      expect(unreacted.body.reactions).toEqual([]);
      expect(await f.storedReply(comment.id, reply.id)).toMatchObject({ markdown: 'Agreed, with a nit', reactions: [] });
      const invalid = await api.request('PUT', path, { token: alice.token, body: { resolved: true } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.message).toBe('resolved: is not an allowed field');
    });

    it('403 for readers posting, 404 for unknown comments and replies, 400 naming the field', async () => {
      const f = await scopeFixture(scope);
      const { org, base } = f;
      const comment = await f.postOk();
      const path = `${base}/${comment.id}`;
      const reader = await org.member('read');
      const denied = await api.request('POST', `${path}/replies`, { token: reader.token, body: { body: { markdown: 'x' } } });
      expect(denied.status).toBe(403);
      const listed = await api.request('GET', `${path}/replies`, { token: reader.token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ items: [], count: 0 });
      expect((await api.request('GET', `${path}/replies`)).status).toBe(401);
      expect((await api.request('GET', `${base}/unknown/replies`, { token: org.admin.token })).status).toBe(404);
      expect((await api.request('POST', `${base}/unknown/replies`, { token: org.admin.token, body: { body: { markdown: 'x' } } })).status).toBe(404);
      expect((await api.request('GET', `${path}/replies/unknown`, { token: org.admin.token })).status).toBe(404);
      expect((await api.request('PUT', `${path}/replies/unknown`, { token: org.admin.token, body: { addedReactions: ['👍'] } })).status).toBe(404);
      const missing = await api.request('POST', `${path}/replies`, { token: org.admin.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('body: is required');
      const tooBig = await api.request('POST', `${path}/replies`, { token: org.admin.token, body: { body: { markdown: 'x'.repeat(100 * 1024 + 1) } } });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.error.message).toBe('body.markdown: must be at most 100 KB');
      expect(await f.stored(comment.id)).toMatchObject({ replies: 0, repliers: [] });
      const badLimit = await api.request('GET', `${path}/replies`, { token: org.admin.token, query: { limit: 0 } });
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.error.message).toMatch(/^limit: /);
      const badCursor = await api.request('GET', `${path}/replies`, { token: org.admin.token, query: { page: 'garbage' } });
      expect(badCursor.status).toBe(400);
      const reply = await createReply(api, org, comment, { body: { markdown: 'x' } });
      // A reply is only found under its own comment, and not from another organization.
      const otherComment = await f.postOk();
      expect((await api.request('GET', `${base}/${otherComment.id}/replies/${reply.id}`, { token: org.admin.token })).status).toBe(404);
      const other = await newOrg();
      expect((await api.request('GET', `${path}/replies/${reply.id}`, { token: other.admin.token })).status).toBe(404);
      expect((await api.request('GET', `${path}/replies`, { token: other.admin.token })).status).toBe(404);
    });

    it('counts concurrent replies exactly', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const comment = await f.postOk();
      const users = await Promise.all([0, 1, 2].map((i) => org.member('comment', `Replier ${i}`)));
      const posts = [...users, ...users].map((u) => api.request('POST', `${f.base}/${comment.id}/replies`, { token: u.token, body: { body: { markdown: 'hi' } } }));
      const results = await Promise.all(posts);
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      const stored = (await f.stored(comment.id))!;
      expect(stored.replies).toBe(6);
      expect((stored.repliers as { count: number }[]).map((r) => r.count)).toEqual([2, 2, 2]);
      const listed = await api.request('GET', `${f.base}/${comment.id}/replies`, { token: org.admin.token });
      expect(listed.body.count).toBe(6);
      expect(ids(listed.body.items).sort()).toEqual(ids(results.map((r) => r.body)).sort());
    });

    it('deletes replies: the author or a space admin; replies and repliers stay true; 204 when absent', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const comment = await f.postOk();
      const path = `${f.base}/${comment.id}`;
      const alice = await org.member('comment', 'Alice');
      const bob = await org.member('edit', 'Bob');
      const a1 = await createReply(api, org, comment, { body: { markdown: 'a1' } }, alice.token);
      advanceClock(1000);
      const b1 = await createReply(api, org, comment, { body: { markdown: 'b1' } }, bob.token);
      advanceClock(1000);
      const a2 = await createReply(api, org, comment, { body: { markdown: 'a2' } }, alice.token);

      const denied = await api.request('DELETE', `${path}/replies/${a2.id}`, { token: bob.token });
      expect(denied.status).toBe(403);
      expect(denied.body.error.message).toBe('Deleting a reply requires being its author or an admin of the space');
      expect((await api.request('DELETE', `${path}/replies/${a2.id}`)).status).toBe(401);
      const other = await newOrg();
      expect((await api.request('DELETE', `${path}/replies/${a2.id}`, { token: other.admin.token })).status).toBe(404);

      // Alice's latest reply goes: her count drops and updatedAt falls back to her previous reply.
      const res = await api.request('DELETE', `${path}/replies/${a2.id}`, { token: alice.token });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(await f.storedReply(comment.id, a2.id)).toBeUndefined();
      expect((await api.request('GET', `${path}/replies/${a2.id}`, { token: alice.token })).status).toBe(404);
      let read = await api.request('GET', path, { token: org.admin.token });
      expect(read.body.replies).toBe(2);
      expect(read.body.repliers).toEqual([
        { user: presentedUser(api, alice), count: 1, updatedAt: a1.postedAt },
        { user: presentedUser(api, bob), count: 1, updatedAt: b1.postedAt },
      ]);
      // A space admin deletes Bob's only reply: Bob leaves the repliers.
      expect((await api.request('DELETE', `${path}/replies/${b1.id}`, { token: org.admin.token })).status).toBe(204);
      read = await api.request('GET', path, { token: org.admin.token });
      expect(read.body.replies).toBe(1);
      expect(read.body.repliers).toEqual([{ user: presentedUser(api, alice), count: 1, updatedAt: a1.postedAt }]);
      expect(ids((await api.request('GET', `${path}/replies`, { token: alice.token })).body.items)).toEqual([a1.id]);
      // Gone, never there, or on an unknown comment: 204, nothing changes.
      for (const p of [`${path}/replies/${a2.id}`, `${path}/replies/never`, `${path.replace(comment.id, 'nope')}/replies/${a1.id}`]) {
        expect((await api.request('DELETE', p, { token: alice.token })).status, p).toBe(204);
      }
      expect(await f.stored(comment.id)).toMatchObject({ replies: 1 });
    });
  });

  describe('DELETE (base)/{commentId}', () => {
    it('deletes a comment with its replies, keeping the open count; 204 also when absent', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const author = await org.member('comment');
      const comment = await f.postOk(author.token);
      const resolved = await f.postOk(author.token);
      await f.put(resolved.id, { resolved: true }, author.token);
      const replies = [];
      for (const text of ['one', 'two', 'three']) replies.push(await createReply(api, org, comment, { body: { markdown: text } }));
      expect(await f.count()).toBe(1);
      const res = await api.request('DELETE', `${f.base}/${comment.id}`, { token: author.token });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(await f.stored(comment.id)).toBeUndefined();
      for (const reply of replies) expect(await f.storedReply(comment.id, reply.id)).toBeUndefined();
      expect(await f.storedReplies(comment.id)).toEqual([]);
      expect(await f.count()).toBe(0);
      expect((await api.request('GET', `${f.base}/${comment.id}`, { token: author.token })).status).toBe(404);
      expect((await api.request('GET', `${f.base}/${comment.id}/replies`, { token: author.token })).status).toBe(404);
      // Deleting a resolved comment leaves the open count alone.
      expect((await api.request('DELETE', `${f.base}/${resolved.id}`, { token: author.token })).status).toBe(204);
      expect(await f.count()).toBe(0);
      await expectNoComments(f);
      // Gone or never there: 204.
      expect((await api.request('DELETE', `${f.base}/${comment.id}`, { token: author.token })).status).toBe(204);
      expect((await api.request('DELETE', `${f.base}/never`, { token: author.token })).status).toBe(204);
      expect((await api.request('GET', f.base, { token: author.token })).body.items).toEqual([]);
    });

    it('lets the author or a space admin delete; 403 for others; 401 and 404 across organizations', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const author = await org.member('comment');
      const editor = await org.member('edit');
      const comment = await f.postOk(author.token);
      const path = `${f.base}/${comment.id}`;
      const denied = await api.request('DELETE', path, { token: editor.token });
      expect(denied.status).toBe(403);
      expect(denied.body.error.message).toBe('Deleting a comment requires being its author or an admin of the space');
      const other = await newOrg();
      expect((await api.request('DELETE', path, { token: other.admin.token })).status).toBe(404);
      expect((await api.request('DELETE', path)).status).toBe(401);
      expect(await f.stored(comment.id)).toBeDefined();
      // The space admin may delete it, with its replies.
      const reply = await createReply(api, org, comment, {}, editor.token);
      expect((await api.request('DELETE', path, { token: org.admin.token })).status).toBe(204);
      expect(await f.stored(comment.id)).toBeUndefined();
      expect(await f.storedReply(comment.id, reply.id)).toBeUndefined();
      expect(await f.storedReplies(comment.id)).toEqual([]);
      expect(await f.count()).toBe(0);
    });

    it('deletes more replies than one transaction holds', async () => {
      const f = await scopeFixture(scope);
      const { org } = f;
      const comment = await f.postOk();
      // 120 replies, posted a few at a time (each post updates the comment's counters conditionally).
      for (let i = 0; i < 120; i += 4) {
        await Promise.all([0, 1, 2, 3].map((j) => createReply(api, org, comment, { body: { markdown: `r${i + j}` } })));
      }
      expect((await f.stored(comment.id))!.replies).toBe(120);
      expect(await f.storedReplies(comment.id)).toHaveLength(120);
      expect((await api.request('DELETE', `${f.base}/${comment.id}`, { token: org.admin.token })).status).toBe(204);
      expect(await f.stored(comment.id)).toBeUndefined();
      expect(await f.storedReplies(comment.id)).toEqual([]);
      expect(await f.count()).toBe(0);
    });
  });

  describe('counter', () => {
    it('counts open comments through posts, resolutions and deletions', async () => {
      const f = await scopeFixture(scope);
      const comments = [];
      for (let i = 0; i < 3; i++) comments.push(await f.postOk());
      expect(await f.count()).toBe(3);
      await f.put(comments[0].id, { resolved: true });
      await f.put(comments[1].id, { resolved: true });
      expect(await f.count()).toBe(1);
      await f.put(comments[1].id, { resolved: false });
      expect(await f.count()).toBe(2);
      await api.request('DELETE', `${f.base}/${comments[2].id}`, { token: f.org.admin.token });
      expect(await f.count()).toBe(1);
      expect(await f.storedCount()).toBe(1);
      const open = await f.list({ status: 'open' });
      expect(open.body.count).toBe(1);
      expect(await f.otherCount()).toBe(0);
    });
  });
});

describe('comments of a change request, by its number', () => {
  it('posts, reads, lists and reopens by change request number, stored under the change request id', async () => {
    const f = await scopeFixture(scopes[1]!);
    const { org, space, cr } = f;
    const byNumber = crComments(space, String(cr.number));
    const posted = await createComment(api, org, space, { changeRequest: String(cr.number) });
    expect(posted.target.changeRequest).toBe(cr.id);
    expect(posted.urls.location).toBe(`${api.url}/v1${crComments(space, cr)}/${posted.id}`);
    expect(await f.count()).toBe(1);
    expect(await f.stored(posted.id)).toMatchObject({ target: { changeRequest: cr.id } });
    const get = await api.request('GET', `${byNumber}/${posted.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(get.body).toEqual(posted);
    const list = await api.request('GET', byNumber, { token: org.admin.token });
    expect(list.body).toEqual((await f.list()).body);
    expect((await f.put(posted.id, { resolved: true })).status).toBe(200);
    const reopened = await api.request('PUT', `${byNumber}/${posted.id}`, { token: org.admin.token, body: { resolved: false } });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual(posted);
    expect(await f.count()).toBe(1);
  });

  it('404 for unknown change requests and for a change request of another space', async () => {
    const f = await scopeFixture(scopes[1]!);
    const { org, space, cr } = f;
    const body = { body: { markdown: 'x' } };
    const unknown = await api.request('POST', crComments(space, 'nope'), { token: org.admin.token, body });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(`No change request found with id or number nope in space ${space.id}`);
    expect((await api.request('POST', crComments(space, '999'), { token: org.admin.token, body })).status).toBe(404);
    expect((await api.request('GET', crComments(space, 'nope'), { token: org.admin.token })).status).toBe(404);
    // A change request of another space of the organization is not found under this space.
    const otherSpace = await createSpace(api, org);
    expect((await api.request('POST', crComments(otherSpace, cr), { token: org.admin.token, body })).status).toBe(404);
    expect(await f.count()).toBe(0);
  });

  it('allows discussion on archived change requests', async () => {
    const f = await scopeFixture(scopes[1]!);
    const { org, space, cr } = f;
    const archived = await api.request('PATCH', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token, body: { status: 'archived' } });
    expect(archived.status).toBe(200);
    await f.postOk();
    expect(await f.count()).toBe(1);
  });
});

describe('scopes: a change request\'s comments and the space\'s own comments are apart', () => {
  it('lists, reads and writes each comment only in its own scope', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createChangeRequest(api, org, space, { subject: 'Review me' });
    const otherCr = await createChangeRequest(api, org, space, { subject: 'Other' });
    const inSpace = await createComment(api, org, space, { body: { markdown: 'space' } });
    const inCr = await createComment(api, org, space, { changeRequest: cr, body: { markdown: 'cr' } });
    const inOther = await createComment(api, org, space, { changeRequest: otherCr, body: { markdown: 'other' } });
    const token = org.admin.token;
    const spaceCount = () => shownCount(`/spaces/${space.id}`, token);
    const crCount = (c: { id: string }) => shownCount(`/spaces/${space.id}/change-requests/${c.id}`, token);

    // The space's list holds only its own comments (the public interface: "not inside a change request").
    expect(ids((await api.request('GET', spaceComments(space), { token })).body.items)).toEqual([inSpace.id]);
    expect(ids((await api.request('GET', crComments(space, cr), { token })).body.items)).toEqual([inCr.id]);
    expect(ids((await api.request('GET', crComments(space, otherCr), { token })).body.items)).toEqual([inOther.id]);
    expect(await spaceCount()).toBe(1);
    expect(await crCount(cr)).toBe(1);
    expect(await crCount(otherCr)).toBe(1);

    // A comment is not found under another scope: GET/PUT 404, DELETE 204 without effect.
    for (const path of [`${spaceComments(space)}/${inCr.id}`, `${crComments(space, otherCr)}/${inCr.id}`, `${crComments(space, cr)}/${inSpace.id}`]) {
      expect((await api.request('GET', path, { token })).status, path).toBe(404);
      expect((await api.request('PUT', path, { token, body: { resolved: true } })).status, path).toBe(404);
      expect((await api.request('POST', `${path}/replies`, { token, body: { body: { markdown: 'x' } } })).status, path).toBe(404);
      expect((await api.request('GET', `${path}/replies`, { token })).status, path).toBe(404);
      expect((await api.request('DELETE', path, { token })).status, path).toBe(204);
    }
    const stored = (commentId: string) => commentEntity.get({ spaceId: space.id, commentId }, { consistent: true });
    expect(await stored(inCr.id)).toMatchObject({ status: 'open', version: 1, replies: 0 });
    expect(await stored(inSpace.id)).toMatchObject({ status: 'open', version: 1, replies: 0 });
    expect(await spaceCount()).toBe(1);
    expect(await crCount(cr)).toBe(1);

    // Replies too: only under their comment's own scope.
    const reply = await createReply(api, org, inCr);
    const wrong = `${spaceComments(space)}/${inCr.id}/replies/${reply.id}`;
    expect((await api.request('GET', wrong, { token })).status).toBe(404);
    expect((await api.request('PUT', wrong, { token, body: { addedReactions: ['👍'] } })).status).toBe(404);
    expect((await api.request('DELETE', wrong, { token })).status).toBe(204);
    expect(await commentReplyEntity.get({ spaceId: space.id, commentId: inCr.id, replyId: reply.id })).toBeDefined();
  });

  it('anchors the space\'s comments on the space\'s revision, which lacks a change request\'s new page', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = await createChangeRequest(api, org, space);
    const page = await createPage(api, org, space, { changeRequest: cr });
    const onPage = await createComment(api, org, space, { changeRequest: cr, page: page.id });
    expect(onPage.target.page).toEqual({ id: page.id });
    const refused = await api.request('POST', spaceComments(space), { token: org.admin.token, body: { page: page.id, body: { markdown: 'x' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(`page: no page ${page.id} in the space's current revision`);
    expect(await shownCount(`/spaces/${space.id}`, org.admin.token)).toBe(0);
    expect(await shownCount(`/spaces/${space.id}/change-requests/${cr.id}`, org.admin.token)).toBe(1);
  });
});
