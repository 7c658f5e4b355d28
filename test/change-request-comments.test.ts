import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg, type TestUser, presentedUser } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { getRecord, queryAll } from '../shared/db/operations.ts';
import { advanceClock } from '../shared/clock.ts';
import { commentEntity, commentReplyEntity } from '../shared/db/entities/comment.ts';
import { changeRequestEntity } from '../shared/db/entities/change-request.ts';

/**
 * Comments inside change requests (the public interface's change request comment routes),
 * the reply list and reply deletion (both scopes), over HTTP.
 */
const api = useTestApi();

interface Space { id: string; revision: string }
interface ChangeRequest { id: string; number: number; revision: string }

/** A space with a change request. */
async function setup() {
  const org = await newOrg();
  const space = await createSpace(api, org);
  const cr = await createChangeRequest(api, org, space, { subject: 'Review me' });
  return { org, space, cr };
}

/** Inserts a page `New` into the change request's content; returns its id, first block key and the new CR revision. */
async function insertPage(org: TestOrg, space: Space, cr: ChangeRequest) {
  const base = `/spaces/${space.id}/change-requests/${cr.id}`;
  const edit = await api.request('POST', `${base}/content`, {
    token: org.admin.token, body: { changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'x\n' } }] },
  });
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  const pages = (await api.request('GET', `${base}/content/pages`, { token: org.admin.token })).body.pages;
  const page = pages.find((p: { title: string }) => p.title === 'New');
  const doc = await api.request('GET', `${base}/content/page/${page.id}`, { token: org.admin.token });
  const revision = (await api.request('GET', base, { token: org.admin.token })).body.revision;
  expect(revision).not.toBe(cr.revision);
  return { pageId: page.id as string, blockKey: doc.body.document.nodes[0].key as string, revision: revision as string };
}


const crComments = (space: Space, cr: ChangeRequest | string) => `/spaces/${space.id}/change-requests/${typeof cr === 'string' ? cr : cr.id}/comments`;
const spaceComments = (space: Space) => `/spaces/${space.id}/comments`;

async function postOk(path: string, token: string, body: Record<string, unknown> = { body: { markdown: 'Looks good' } }) {
  const res = await api.request('POST', path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function replyOk(path: string, token: string, markdown = 'Agreed') {
  const res = await api.request('POST', `${path}/replies`, { token, body: { body: { markdown } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The change request's `comments` (open comments), as GET change request shows it. */
async function crCount(space: Space, cr: ChangeRequest, token: string): Promise<number> {
  const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token });
  expect(res.status).toBe(200);
  return res.body.comments;
}

async function spaceCount(space: Space, token: string): Promise<number> {
  const res = await api.request('GET', `/spaces/${space.id}`, { token });
  expect(res.status).toBe(200);
  return res.body.comments;
}

const stored = (space: Space, commentId: string) => getRecord(commentEntity.key({ spaceId: space.id, commentId }), true);
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('POST /spaces/{spaceId}/change-requests/{changeRequestId}/comments', () => {
  it('posts a comment in the change request with every field, stores it and counts it on the change request only', async () => {
    const { org, space, cr } = await setup();
    const res = await api.request('POST', crComments(space, cr), { token: org.admin.token, body: { body: { markdown: 'Please **review**.' } } });
    expect(res.status).toBe(200);
    const id = res.body.id;
    expect(res.body).toEqual({
      object: 'comment',
      id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      postedBy: presentedUser(api, org.admin),
      postedAt: expect.any(String),
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: 'Please **review**.' },
      target: { space: space.id, revision: cr.revision, changeRequest: cr.id },
      urls: { location: `${api.url}/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
    });
    expect(await stored(space, id)).toMatchObject({
      entityType: 'comment', id, spaceId: space.id, status: 'open', version: 1,
      target: { revision: cr.revision, changeRequest: cr.id },
      gsi2pk: `SPACE#${space.id}#CR#${cr.id}#COMMENTS`,
    });
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id }))).toMatchObject({ comments: 1 });
    expect(await spaceCount(space, org.admin.token)).toBe(0);
    // Reads back identically, by id and by number.
    const get = await api.request('GET', `${crComments(space, cr)}/${id}`, { token: org.admin.token });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
    const byNumber = await api.request('GET', `${crComments(space, String(cr.number))}/${id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(byNumber.body).toEqual(res.body);
    // Token, space, change request and comment in one batch (org and membership once seen), users in a second.
    const warm = await api.request('GET', `${crComments(space, cr)}/${id}`, { token: org.admin.token });
    expect(Number(warm.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(3);
  });

  it('posts by change request number, stored under the change request id', async () => {
    const { org, space, cr } = await setup();
    const posted = await postOk(crComments(space, String(cr.number)), org.admin.token);
    expect(posted.target.changeRequest).toBe(cr.id);
    expect(posted.urls.location).toBe(`${api.url}/v1${crComments(space, cr)}/${posted.id}`);
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
  });

  it('anchors on pages and blocks of the change request\'s content, which the space\'s comments cannot name', async () => {
    const { org, space, cr } = await setup();
    const primaryPage = (await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages[0].id;
    const { pageId, blockKey, revision } = await insertPage(org, space, cr);
    const onPage = await postOk(crComments(space, cr), org.admin.token, { page: pageId, body: { markdown: 'On the new page' } });
    expect(onPage.target).toEqual({ space: space.id, revision, changeRequest: cr.id, page: { id: pageId } });
    expect(await stored(space, onPage.id)).toMatchObject({ gsi3pk: `SPACE#${space.id}#CR#${cr.id}#PAGE#${pageId}#COMMENTS` });
    const onNode = await postOk(crComments(space, cr), org.admin.token, {
      page: pageId, node: blockKey, tableCell: { record: 'r1', definition: 'd1' }, body: { markdown: 'On a block' },
    });
    expect(onNode.target).toEqual({
      space: space.id, revision, changeRequest: cr.id, page: { id: pageId }, node: { id: blockKey }, tableCell: { record: 'r1', definition: 'd1' },
    });
    // A page the change request kept from primary content is in its content too.
    expect((await postOk(crComments(space, cr), org.admin.token, { page: primaryPage, body: {} })).target.page).toEqual({ id: primaryPage });
    expect(await crCount(space, cr, org.admin.token)).toBe(3);

    // The space's comments are checked against the space's revision, which lacks the page.
    const refused = await api.request('POST', spaceComments(space), { token: org.admin.token, body: { page: pageId, body: { markdown: 'x' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(`page: no page ${pageId} in the space's current revision`);
    expect(await spaceCount(space, org.admin.token)).toBe(0);

    for (const [body, message] of [
      [{ page: 'nope', body: { markdown: 'x' } }, 'page: no page nope in the change request\'s current revision'],
      [{ page: pageId, node: 'nope', body: { markdown: 'x' } }, `node: no block with key nope on page ${pageId}`],
      [{ node: blockKey, body: { markdown: 'x' } }, 'node: requires page'],
      [{ body: { markdown: '' } }, 'body.markdown: '],
      [{}, 'body: is required'],
      [{ body: { markdown: 'x' }, changeRequest: cr.id }, 'changeRequest: is not an allowed field'],
    ] as const) {
      const res = await api.request('POST', crComments(space, cr), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
    }
    expect(await crCount(space, cr, org.admin.token)).toBe(3);
  });

  it('needs a token and the comment role; 404 for unknown change requests, spaces and other organizations', async () => {
    const { org, space, cr } = await setup();
    const body = { body: { markdown: 'x' } };
    expect((await api.request('POST', crComments(space, cr), { body })).status).toBe(401);
    const reader = await org.member('read');
    const denied = await api.request('POST', crComments(space, cr), { token: reader.token, body });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: { code: 403, message: 'Posting a comment requires the comment role on the space' } });
    const commenter = await org.member('comment');
    expect((await postOk(crComments(space, cr), commenter.token)).postedBy).toEqual(presentedUser(api, commenter));
    const unknown = await api.request('POST', crComments(space, 'nope'), { token: org.admin.token, body });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(`No change request found with id or number nope in space ${space.id}`);
    expect((await api.request('POST', crComments(space, '999'), { token: org.admin.token, body })).status).toBe(404);
    expect((await api.request('POST', `/spaces/nope/change-requests/${cr.id}/comments`, { token: org.admin.token, body })).status).toBe(404);
    // A change request of another space of the organization is not found under this space.
    const otherSpace = await createSpace(api, org);
    expect((await api.request('POST', crComments(otherSpace, cr), { token: org.admin.token, body })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('POST', crComments(space, cr), { token: other.admin.token, body })).status).toBe(404);
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
  });

  it('allows discussion on merged and archived change requests', async () => {
    const { org, space, cr } = await setup();
    const archived = await api.request('PATCH', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token, body: { status: 'archived' } });
    expect(archived.status).toBe(200);
    await postOk(crComments(space, cr), org.admin.token);
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
  });
});

describe('scopes: a change request\'s comments and the space\'s own comments are apart', () => {
  it('lists, reads and writes each comment only in its own scope', async () => {
    const { org, space, cr } = await setup();
    const otherCr = await createChangeRequest(api, org, space, { subject: 'Other' });
    const inSpace = await postOk(spaceComments(space), org.admin.token, { body: { markdown: 'space' } });
    const inCr = await postOk(crComments(space, cr), org.admin.token, { body: { markdown: 'cr' } });
    const inOther = await postOk(crComments(space, otherCr), org.admin.token, { body: { markdown: 'other' } });

    // The space's list holds only its own comments (the public interface: "not inside a change request").
    expect(ids((await api.request('GET', spaceComments(space), { token: org.admin.token })).body.items)).toEqual([inSpace.id]);
    expect(ids((await api.request('GET', crComments(space, cr), { token: org.admin.token })).body.items)).toEqual([inCr.id]);
    expect(ids((await api.request('GET', crComments(space, otherCr), { token: org.admin.token })).body.items)).toEqual([inOther.id]);
    expect(await spaceCount(space, org.admin.token)).toBe(1);
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
    expect(await crCount(space, otherCr, org.admin.token)).toBe(1);

    // A comment is not found under another scope: GET/PUT 404, DELETE 204 without effect.
    const token = org.admin.token;
    for (const path of [`${spaceComments(space)}/${inCr.id}`, `${crComments(space, otherCr)}/${inCr.id}`, `${crComments(space, cr)}/${inSpace.id}`]) {
      expect((await api.request('GET', path, { token })).status, path).toBe(404);
      expect((await api.request('PUT', path, { token, body: { resolved: true } })).status, path).toBe(404);
      expect((await api.request('POST', `${path}/replies`, { token, body: { body: { markdown: 'x' } } })).status, path).toBe(404);
      expect((await api.request('GET', `${path}/replies`, { token })).status, path).toBe(404);
      expect((await api.request('DELETE', path, { token })).status, path).toBe(204);
    }
    expect(await stored(space, inCr.id)).toMatchObject({ status: 'open', version: 1, replies: 0 });
    expect(await stored(space, inSpace.id)).toMatchObject({ status: 'open', version: 1, replies: 0 });
    expect(await spaceCount(space, org.admin.token)).toBe(1);
    expect(await crCount(space, cr, org.admin.token)).toBe(1);

    // Replies too: only under their comment's own scope.
    const reply = await replyOk(`${crComments(space, cr)}/${inCr.id}`, token);
    const wrong = `${spaceComments(space)}/${inCr.id}/replies/${reply.id}`;
    expect((await api.request('GET', wrong, { token })).status).toBe(404);
    expect((await api.request('PUT', wrong, { token, body: { addedReactions: ['👍'] } })).status).toBe(404);
    expect((await api.request('DELETE', wrong, { token })).status).toBe(204);
    expect(await getRecord(commentReplyEntity.key({ spaceId: space.id, commentId: inCr.id, replyId: reply.id }))).toBeDefined();
  });
});

describe('GET /spaces/{spaceId}/change-requests/{changeRequestId}/comments', () => {
  let org: TestOrg;
  let space: Space;
  let cr: ChangeRequest;
  let pageId: string;
  let alice: TestUser;
  let bob: TestUser;
  const posted: { id: string; by: string; page: boolean; resolved: boolean }[] = [];

  beforeAll(async () => {
    ({ org, space, cr } = await setup());
    ({ pageId } = await insertPage(org, space, cr));
    alice = await org.member('comment', 'Alice');
    bob = await org.member('comment', 'Bob');
    const plan: [TestUser, boolean, boolean][] = [[alice, false, false], [bob, true, false], [alice, true, true], [bob, false, false], [org.admin, true, false]];
    for (const [user, onPage, resolved] of plan) {
      advanceClock(1000);
      const comment = await postOk(crComments(space, cr), user.token, { body: { markdown: `by ${user.user.displayName}` }, ...(onPage ? { page: pageId } : {}) });
      if (resolved) expect((await api.request('PUT', `${crComments(space, cr)}/${comment.id}`, { token: user.token, body: { resolved: true } })).status).toBe(200);
      posted.push({ id: comment.id, by: user.user.id, page: onPage, resolved });
    }
    // A space comment on the same page id never shows in the change request's lists.
    await postOk(spaceComments(space), org.admin.token);
  });

  const list = (query: Record<string, string | number> = {}, token = org.admin.token) =>
    api.request('GET', crComments(space, cr), { token, query });

  it('lists newest first by default and oldest first with order=asc, every item presented', async () => {
    const desc = await list();
    expect(desc.status).toBe(200);
    expect(desc.body.count).toBe(5);
    expect(ids(desc.body.items)).toEqual(posted.map((p) => p.id).reverse());
    const get = await api.request('GET', `${crComments(space, cr)}/${posted[2]!.id}`, { token: org.admin.token });
    expect(desc.body.items[2]).toEqual(get.body);
    expect(desc.body.items[2]).toMatchObject({ status: 'resolved', resolvedBy: presentedUser(api, alice) });
    expect(ids((await list({ order: 'asc' })).body.items)).toEqual(posted.map((p) => p.id));
    const byNumber = await api.request('GET', crComments(space, String(cr.number)), { token: org.admin.token });
    expect(byNumber.body).toEqual(desc.body);
    expect(await crCount(space, cr, org.admin.token)).toBe(4);
  });

  it('filters by status, target page and authors within the change request; paginates', async () => {
    expect(ids((await list({ status: 'open' })).body.items)).toEqual(posted.filter((p) => !p.resolved).map((p) => p.id).reverse());
    expect(ids((await list({ status: 'resolved' })).body.items)).toEqual([posted[2]!.id]);
    expect(ids((await list({ targetPage: pageId, order: 'asc' })).body.items)).toEqual(posted.filter((p) => p.page).map((p) => p.id));
    expect(ids((await list({ authors: alice.user.id })).body.items)).toEqual(posted.filter((p) => p.by === alice.user.id).map((p) => p.id).reverse());
    const combined = await list({ authors: `${bob.user.id},${org.admin.user.id}`, targetPage: pageId, status: 'open', order: 'asc' });
    expect(ids(combined.body.items)).toEqual([posted[1]!.id, posted[4]!.id]);
    const first = await list({ limit: 2, status: 'open', order: 'asc' });
    expect(ids(first.body.items)).toEqual([posted[0]!.id, posted[1]!.id]);
    const second = await list({ limit: 2, status: 'open', order: 'asc', page: first.body.next.page });
    expect(ids(second.body.items)).toEqual([posted[3]!.id, posted[4]!.id]);
    // A cursor belongs to its list: the space's list reads another partition.
    const foreign = await api.request('GET', spaceComments(space), { token: org.admin.token, query: { page: first.body.next.page } });
    expect(foreign.status).toBe(400);
  });

  it('400 for bad query values, 401 without a token, 404 outside, read for readers', async () => {
    for (const [query, field] of [[{ limit: 0 }, 'limit'], [{ status: 'closed' }, 'status'], [{ order: 'newest' }, 'order'], [{ format: 'html' }, 'format']] as const) {
      const res = await list(query as Record<string, string | number>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api.request('GET', crComments(space, cr))).status).toBe(401);
    const other = await newOrg();
    expect((await list({}, other.admin.token)).status).toBe(404);
    expect((await api.request('GET', crComments(space, 'nope'), { token: org.admin.token })).status).toBe(404);
    const reader = await org.member('read');
    const asReader = await list({}, reader.token);
    expect(asReader.status).toBe(200);
    expect(asReader.body.items[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });
});

describe('PUT and DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', () => {
  it('keeps the change request\'s comments counter true: post +1, resolve -1, reopen +1, delete open -1', async () => {
    const { org, space, cr } = await setup();
    const author = await org.member('comment', 'Author');
    await postOk(spaceComments(space), org.admin.token);
    const a = await postOk(crComments(space, cr), author.token);
    const b = await postOk(crComments(space, cr), author.token);
    expect(await crCount(space, cr, org.admin.token)).toBe(2);

    const resolved = await api.request('PUT', `${crComments(space, cr)}/${a.id}`, { token: author.token, body: { resolved: true } });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ ...a, status: 'resolved', resolvedAt: expect.any(String), resolvedBy: presentedUser(api, author) });
    expect(await stored(space, a.id)).toMatchObject({ status: 'resolved', resolvedBy: author.user.id, version: 2 });
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
    // Resolving again changes nothing.
    await api.request('PUT', `${crComments(space, cr)}/${a.id}`, { token: author.token, body: { resolved: true } });
    expect(await crCount(space, cr, org.admin.token)).toBe(1);

    // A space admin reopens (by change request number).
    const reopened = await api.request('PUT', `${crComments(space, String(cr.number))}/${a.id}`, { token: org.admin.token, body: { resolved: false } });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual({ ...a, permissions: { view: true, edit: false, reply: true, delete: true } });
    expect(await crCount(space, cr, org.admin.token)).toBe(2);

    // Deleting an open comment -1; a resolved one leaves the count alone.
    expect((await api.request('DELETE', `${crComments(space, cr)}/${b.id}`, { token: author.token })).status).toBe(204);
    expect(await stored(space, b.id)).toBeUndefined();
    expect(await crCount(space, cr, org.admin.token)).toBe(1);
    await api.request('PUT', `${crComments(space, cr)}/${a.id}`, { token: author.token, body: { resolved: true } });
    expect(await crCount(space, cr, org.admin.token)).toBe(0);
    expect((await api.request('DELETE', `${crComments(space, cr)}/${a.id}`, { token: author.token })).status).toBe(204);
    expect(await crCount(space, cr, org.admin.token)).toBe(0);
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id }))).toMatchObject({ comments: 0 });
    // Gone or never there: 204.
    expect((await api.request('DELETE', `${crComments(space, cr)}/${a.id}`, { token: author.token })).status).toBe(204);
    expect((await api.request('DELETE', `${crComments(space, cr)}/never`, { token: author.token })).status).toBe(204);
    // The space's own counter never moved.
    expect(await spaceCount(space, org.admin.token)).toBe(1);
  });

  it('edits the body (author only) and reactions; 400, 403 and 404 as for space comments', async () => {
    const { org, space, cr } = await setup();
    const author = await org.member('comment', 'Author');
    const editor = await org.member('edit', 'Editor');
    const reader = await org.member('read', 'Reader');
    const comment = await postOk(crComments(space, cr), author.token, { body: { markdown: 'First' } });
    const path = `${crComments(space, cr)}/${comment.id}`;
    advanceClock(1000);
    const edited = await api.request('PUT', path, { token: author.token, body: { body: { markdown: 'Second' } } });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...comment, body: { markdown: 'Second' }, editedAt: expect.any(String) });
    const reacted = await api.request('PUT', path, { token: editor.token, body: { addedReactions: ['👍'] } });
    expect(reacted.body.reactions).toEqual([{ emoji: '👍', count: 1, users: [{ user: presentedUser(api, editor), reactedAt: expect.any(String) }] }]);
    expect(await stored(space, comment.id)).toMatchObject({ markdown: 'Second', reactions: [{ emoji: '👍', users: [{ userId: editor.user.id }] }] });

    const notAuthor = await api.request('PUT', path, { token: org.admin.token, body: { body: { markdown: 'Hijack' } } });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.error.message).toBe('Only its author can edit the body of a comment');
    expect((await api.request('PUT', path, { token: editor.token, body: { resolved: true } })).status).toBe(403);
    expect((await api.request('PUT', path, { token: reader.token, body: { addedReactions: ['🎉'] } })).status).toBe(403);
    const deniedDelete = await api.request('DELETE', path, { token: editor.token });
    expect(deniedDelete.status).toBe(403);
    expect(deniedDelete.body.error.message).toBe('Deleting a comment requires being its author or an admin of the space');
    const invalid = await api.request('PUT', path, { token: author.token, body: { status: 'resolved' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toBe('status: is not an allowed field');
    expect((await api.request('PUT', path, { token: author.token, body: {} })).status).toBe(400);
    expect((await api.request('PUT', `${crComments(space, cr)}/unknown`, { token: author.token, body: { resolved: true } })).status).toBe(404);
    expect((await api.request('PUT', path, { body: { resolved: true } })).status).toBe(401);
    expect((await api.request('DELETE', path)).status).toBe(401);
    const other = await newOrg();
    expect((await api.request('PUT', path, { token: other.admin.token, body: { resolved: true } })).status).toBe(404);
    expect((await api.request('DELETE', path, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', path, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', path)).status).toBe(401);
    expect((await api.request('GET', `${crComments(space, cr)}/unknown`, { token: org.admin.token })).status).toBe(404);
    expect(await stored(space, comment.id)).toMatchObject({ markdown: 'Second', status: 'open' });
    // The space admin may delete it, with its replies.
    await replyOk(path, editor.token);
    expect((await api.request('DELETE', path, { token: org.admin.token })).status).toBe(204);
    expect(await queryAll({ partition: `SPACE#${space.id}`, prefix: `COMMENT#${comment.id}` })).toEqual([]);
    expect(await crCount(space, cr, org.admin.token)).toBe(0);
  });

  it('keeps the counter exact under concurrent resolutions', async () => {
    const { org, space, cr } = await setup();
    const comment = await postOk(crComments(space, cr), org.admin.token);
    const flips = await Promise.all([true, false, true, false, true].map((resolved) =>
      api.request('PUT', `${crComments(space, cr)}/${comment.id}`, { token: org.admin.token, body: { resolved } })));
    expect(flips.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const status = (await stored(space, comment.id))!.status;
    expect(await crCount(space, cr, org.admin.token)).toBe(status === 'open' ? 1 : 0);
  });
});

/** Reply operations, the same in both scopes. */
describe.each([
  ['a change request', true],
  ['the space', false],
] as const)('replies to a comment of %s', (_name, inChangeRequest) => {
  async function setupComment() {
    const { org, space, cr } = await setup();
    const base = inChangeRequest ? crComments(space, cr) : spaceComments(space);
    const comment = await postOk(base, org.admin.token);
    return { org, space, cr, base, path: `${base}/${comment.id}`, comment };
  }

  it('posts, reads, edits and lists replies (oldest first, paginated)', async () => {
    const { org, space, cr, path, comment } = await setupComment();
    const alice = await org.member('comment', 'Alice');
    const bob = await org.member('comment', 'Bob');
    const first = await api.request('POST', `${path}/replies`, { token: alice.token, body: { body: { markdown: 'One' } } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      object: 'comment-reply',
      id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      postedBy: presentedUser(api, alice),
      postedAt: expect.any(String),
      reactions: [],
      body: { markdown: 'One' },
      urls: { location: `${api.url}/v1${path}/replies/${first.body.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(await getRecord(commentReplyEntity.key({ spaceId: space.id, commentId: comment.id, replyId: first.body.id }))).toMatchObject({
      entityType: 'comment-reply', postedBy: alice.user.id, markdown: 'One', gsi2pk: `SPACE#${space.id}#COMMENT#${comment.id}#REPLIES`,
    });
    advanceClock(1000);
    const second = await replyOk(path, bob.token, 'Two');
    advanceClock(1000);
    const third = await replyOk(path, alice.token, 'Three');

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
    expect(ids(list.body.items)).toEqual([first.body.id, second.id, third.id]);
    expect(list.body.items[1]).toEqual({ ...edited.body, permissions: { view: true, edit: true, reply: true, delete: true } });
    const page1 = await api.request('GET', `${path}/replies`, { token: bob.token, query: { limit: 2 } });
    expect(ids(page1.body.items)).toEqual([first.body.id, second.id]);
    const page2 = await api.request('GET', `${path}/replies`, { token: bob.token, query: { limit: 2, page: page1.body.next.page } });
    expect(ids(page2.body.items)).toEqual([third.id]);
    expect(page2.body.next).toBeUndefined();

    const read = await api.request('GET', path, { token: org.admin.token });
    expect(read.body.replies).toBe(3);
    expect(read.body.repliers).toEqual([
      { user: presentedUser(api, alice), count: 2, updatedAt: third.postedAt },
      { user: presentedUser(api, bob), count: 1, updatedAt: second.postedAt },
    ]);
    // Replies leave the open counts alone.
    if (inChangeRequest) expect(await crCount(space, cr, org.admin.token)).toBe(1);
    expect(await spaceCount(space, org.admin.token)).toBe(inChangeRequest ? 0 : 1);
  });

  it('deletes replies: the author or a space admin; replies and repliers stay true; 204 when absent', async () => {
    const { org, space, path, comment } = await setupComment();
    const alice = await org.member('comment', 'Alice');
    const bob = await org.member('edit', 'Bob');
    const a1 = await replyOk(path, alice.token, 'a1');
    advanceClock(1000);
    const b1 = await replyOk(path, bob.token, 'b1');
    advanceClock(1000);
    const a2 = await replyOk(path, alice.token, 'a2');

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
    expect(await getRecord(commentReplyEntity.key({ spaceId: space.id, commentId: comment.id, replyId: a2.id }))).toBeUndefined();
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
    expect(await getRecord(commentEntity.key({ spaceId: space.id, commentId: comment.id }), true)).toMatchObject({ replies: 1 });
  });

  it('403 for readers posting, 404 for unknown comments and replies, 400 naming the field', async () => {
    const { org, path, base } = await setupComment();
    const reader = await org.member('read');
    expect((await api.request('POST', `${path}/replies`, { token: reader.token, body: { body: { markdown: 'x' } } })).status).toBe(403);
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
    const badLimit = await api.request('GET', `${path}/replies`, { token: org.admin.token, query: { limit: 0 } });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toMatch(/^limit: /);
    const badCursor = await api.request('GET', `${path}/replies`, { token: org.admin.token, query: { page: 'garbage' } });
    expect(badCursor.status).toBe(400);
    const other = await newOrg();
    expect((await api.request('GET', `${path}/replies`, { token: other.admin.token })).status).toBe(404);
  });
});
