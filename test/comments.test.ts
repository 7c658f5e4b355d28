import { beforeAll, describe, expect, it } from 'vitest';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi, newOrg, type TestOrg, type TestUser, presentedUser } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { getRecord, queryAll, transact } from '../shared/db/operations.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { advanceClock } from '../shared/clock.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { commentEntity, commentReplyEntity } from '../shared/db/entities/comment.ts';
import { loadRevision, prepareRevision } from '../shared/content/revisions.ts';
import { putJsonBlob } from '../shared/content/blobs.ts';

const api = useTestApi();

interface Space { id: string; revision: string }

/** The id of the page a new space starts with. */
async function firstPageId(space: Space): Promise<string> {
  const loaded = await loadRevision(space.id, space.revision);
  return loaded!.manifest.pages[0]!.id;
}

/**
 * Gives the space's first page a document with a block keyed `key` (a new revision, as an
 * edit would), so comments can be anchored on it. Returns the page id and the new revision.
 */
async function addBlock(space: Space, key: string): Promise<{ pageId: string; revision: string }> {
  // Manifests from the blob cache are frozen: edit a copy, as the service does.
  const manifest = structuredClone((await loadRevision(space.id, space.revision))!.manifest);
  const page = manifest.pages[0]!;
  page.document = await putJsonBlob({
    object: 'document', data: { schemaVersion: 1 },
    nodes: [{ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello', marks: [] }] }] }],
  });
  const next = await prepareRevision({ spaceId: space.id, manifest, parents: [space.revision], type: 'edits', createdBy: 'test' });
  await transact([next.put, {
    Update: {
      TableName: config.tableName, Key: spaceEntity.key({ spaceId: space.id }),
      UpdateExpression: 'SET revision = :r', ExpressionAttributeValues: { ':r': next.revision.id },
    },
  }]);
  space.revision = next.revision.id;
  return { pageId: page.id, revision: next.revision.id };
}


const commentsPath = (spaceId: string) => `/spaces/${spaceId}/comments`;

async function post(space: Space, token: string, body: Record<string, unknown>) {
  return api.request('POST', commentsPath(space.id), { token, body });
}

async function postOk(space: Space, token: string, body: Record<string, unknown> = { body: { markdown: 'Looks good' } }) {
  const res = await post(space, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function put(space: Space, commentId: string, token: string, body: Record<string, unknown>) {
  return api.request('PUT', `${commentsPath(space.id)}/${commentId}`, { token, body });
}

async function openCount(space: Space, token: string): Promise<number> {
  const res = await api.request('GET', `/spaces/${space.id}`, { token });
  expect(res.status).toBe(200);
  return res.body.comments;
}

async function storedComment(space: Space, commentId: string) {
  return getRecord(commentEntity.key({ spaceId: space.id, commentId }), true);
}

async function spaceComments(space: Space) {
  return (await queryAll({ partition: `SPACE#${space.id}`, prefix: 'COMMENT#' }));
}

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('POST /spaces/{spaceId}/comments', () => {
  it('posts a comment on the space with every field, stores it and counts it as open', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const res = await post(space, org.admin.token, { body: { markdown: 'Please **review** this.' } });
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
      body: { markdown: 'Please **review** this.' },
      target: { space: space.id, revision: space.revision },
      urls: { location: `${api.url}/v1/spaces/${space.id}/comments/${id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
    });
    expect(new Date(res.body.postedAt).toISOString()).toBe(res.body.postedAt);
    const stored = await storedComment(space, id);
    expect(stored).toMatchObject({
      entityType: 'comment', id, spaceId: space.id, postedBy: org.admin.user.id, markdown: 'Please **review** this.',
      status: 'open', replies: 0, version: 1, target: { revision: space.revision },
    });
    expect(stored).not.toHaveProperty('gsi3pk');
    expect(await openCount(space, org.admin.token)).toBe(1);
    // The same comment reads back identically.
    const get = await api.request('GET', `${commentsPath(space.id)}/${id}`, { token: org.admin.token });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
  });

  it('anchors a comment on a page, a block node and a table cell of the current revision', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const pageId = await firstPageId(space);
    const onPage = await postOk(space, org.admin.token, { page: pageId, body: { markdown: 'On the page' } });
    expect(onPage.target).toEqual({ space: space.id, revision: space.revision, page: { id: pageId } });
    expect(await storedComment(space, onPage.id)).toMatchObject({ gsi3pk: `SPACE#${space.id}#PAGE#${pageId}#COMMENTS` });

    const { revision } = await addBlock(space, 'block-1');
    const onNode = await postOk(space, org.admin.token, { page: pageId, node: 'block-1', body: { markdown: 'On the block' } });
    expect(onNode.target).toEqual({ space: space.id, revision, page: { id: pageId }, node: { id: 'block-1' } });
    const onCell = await postOk(space, org.admin.token, {
      page: pageId, node: 'block-1', tableCell: { record: 'r1', definition: 'd1' }, body: { markdown: 'On a cell' },
    });
    expect(onCell.target).toEqual({
      space: space.id, revision, page: { id: pageId }, node: { id: 'block-1' }, tableCell: { record: 'r1', definition: 'd1' },
    });
    expect(await openCount(space, org.admin.token)).toBe(3);
  });

  it('accepts the empty body {} of the public interface', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const empty = await postOk(space, org.admin.token, { body: {} });
    expect(empty.body).toEqual({ markdown: '' });
  });

  it('refuses invalid bodies naming the field, and writes nothing', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const pageId = await firstPageId(space);
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
      [{ body: { markdown: 'x' }, page: 'no-such-page' }, 'page: no page no-such-page'],
      [{ body: { markdown: 'x' }, node: 'n1' }, 'node: requires page'],
      [{ body: { markdown: 'x' }, page: pageId, node: 'no-such-block' }, `node: no block with key no-such-block on page ${pageId}`],
      [{ body: { markdown: 'x' }, page: pageId, tableCell: { record: 'r', definition: 'd' } }, 'tableCell: requires node'],
      [{ body: { markdown: 'x' }, page: pageId, node: 'n', tableCell: { record: 'r' } }, 'tableCell.definition: '],
    ];
    for (const [body, message] of cases) {
      const res = await api.request('POST', commentsPath(space.id), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)?.slice(0, 100)).toBe(400);
      expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
    }
    expect(await spaceComments(space)).toEqual([]);
    expect(await openCount(space, org.admin.token)).toBe(0);
    // Exactly 100 KB is fine.
    await postOk(space, org.admin.token, { body: { markdown: 'x'.repeat(100 * 1024) } });
  });

  it('needs a token, the comment role, and hides other organizations\' spaces', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    expect((await api.request('POST', commentsPath(space.id), { body: { body: { markdown: 'x' } } })).status).toBe(401);
    const reader = await org.member('read');
    const denied = await post(space, reader.token, { body: { markdown: 'x' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: { code: 403, message: 'Posting a comment requires the comment role on the space' } });
    const commenter = await org.member('comment');
    const ok = await postOk(space, commenter.token);
    expect(ok.postedBy).toEqual(presentedUser(api, commenter));
    const other = await newOrg();
    expect((await post(space, other.admin.token, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await api.request('POST', commentsPath('no-such-space'), { token: org.admin.token, body: { body: { markdown: 'x' } } })).status).toBe(404);
    const guest = await org.member(null);
    expect((await post(space, guest.token, { body: { markdown: 'x' } })).status).toBe(404);
    expect((await spaceComments(space)).length).toBe(1);
  });
});

describe('comments and roles over time', () => {
  it('allows discussion on a locked space; a demoted author can no longer change their comment', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    expect((await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } })).status).toBe(200);
    const author = await org.member('comment');
    const comment = await postOk(space, author.token);
    expect(comment.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect((await api.request('PATCH', `/orgs/${org.id}/members/${author.user.id}`, { token: org.admin.token, body: { role: 'read' } })).status).toBe(200);
    const read = await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: author.token });
    expect(read.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await put(space, comment.id, author.token, { body: { markdown: 'Changed' } })).status).toBe(403);
    expect((await put(space, comment.id, author.token, { resolved: true })).status).toBe(403);
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: author.token })).status).toBe(403);
    expect(await storedComment(space, comment.id)).toMatchObject({ markdown: 'Looks good', status: 'open', version: 1 });
  });
});

describe('GET /spaces/{spaceId}/comments/{commentId}', () => {
  it('reads a comment with the caller\'s permissions, in few round trips', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const commenter = await org.member('comment');
    const reader = await org.member('read');
    const comment = await postOk(space, commenter.token);
    const path = `${commentsPath(space.id)}/${comment.id}`;
    const asReader = await api.request('GET', path, { token: reader.token });
    expect(asReader.status).toBe(200);
    expect(asReader.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const asAdmin = await api.request('GET', path, { token: org.admin.token, query: { format: 'document' } });
    expect(asAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(asAdmin.body.body).toEqual({ markdown: 'Looks good' });
    expect((await api.request('GET', path, { token: commenter.token, query: { format: 'markdown' } })).body.permissions)
      .toEqual({ view: true, edit: true, reply: true, delete: true });
    const warm = await api.request('GET', path, { token: reader.token });
    // Token, space, comment (and, once seen, org and membership) in one BatchGet; the users in a second.
    expect(Number(warm.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(2);
  });

  it('404 for an unknown comment, another space\'s comment or another organization; 400 for a bad format', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const otherSpace = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
    expect((await api.request('GET', `${commentsPath(space.id)}/nope`, { token: org.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${commentsPath(otherSpace.id)}/${comment.id}`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${commentsPath(space.id)}/${comment.id}`)).status).toBe(401);
    const bad = await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: org.admin.token, query: { format: 'html' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('format: must be markdown or document');
  });
});

describe('GET /spaces/{spaceId}/comments', () => {
  let org: TestOrg;
  let space: Space;
  let pageId: string;
  let alice: TestUser;
  let bob: TestUser;
  const posted: { id: string; by: string; page: boolean; resolved: boolean }[] = [];

  beforeAll(async () => {
    org = await newOrg();
    space = await createSpace(api, org);
    pageId = await firstPageId(space);
    alice = await org.member('comment', 'Alice');
    bob = await org.member('comment', 'Bob');
    // Oldest first: a1 (space), b1 (page), a2 (page, resolved), b2 (space), admin1 (page)
    const plan: [TestUser, boolean, boolean][] = [[alice, false, false], [bob, true, false], [alice, true, true], [bob, false, false], [org.admin, true, false]];
    for (const [user, onPage, resolved] of plan) {
      advanceClock(1000);
      const comment = await postOk(space, user.token, { body: { markdown: `by ${user.user.displayName}` }, ...(onPage ? { page: pageId } : {}) });
      if (resolved) expect((await put(space, comment.id, user.token, { resolved: true })).status).toBe(200);
      posted.push({ id: comment.id, by: user.user.id, page: onPage, resolved });
    }
  });

  const list = (query: Record<string, string | number> = {}, token = org.admin.token) =>
    api.request('GET', commentsPath(space.id), { token, query });

  it('lists newest first by default, oldest first with order=asc, every item presented', async () => {
    const desc = await list();
    expect(desc.status).toBe(200);
    expect(desc.body.count).toBe(5);
    expect(desc.body.next).toBeUndefined();
    expect(ids(desc.body.items)).toEqual(posted.map((p) => p.id).reverse());
    const get = await api.request('GET', `${commentsPath(space.id)}/${posted[2]!.id}`, { token: org.admin.token });
    expect(desc.body.items[2]).toEqual(get.body);
    expect(desc.body.items[2]).toMatchObject({ status: 'resolved', resolvedBy: presentedUser(api, alice), resolvedAt: expect.any(String) });
    const asc = await list({ order: 'asc' });
    expect(ids(asc.body.items)).toEqual(posted.map((p) => p.id));
  });

  it('filters by status, target page and authors, combined', async () => {
    const open = await list({ status: 'open' });
    expect(ids(open.body.items)).toEqual(posted.filter((p) => !p.resolved).map((p) => p.id).reverse());
    const resolved = await list({ status: 'resolved' });
    expect(ids(resolved.body.items)).toEqual([posted[2]!.id]);
    expect(ids((await list({ status: 'all' })).body.items)).toHaveLength(5);
    const onPage = await list({ targetPage: pageId, order: 'asc' });
    expect(ids(onPage.body.items)).toEqual(posted.filter((p) => p.page).map((p) => p.id));
    expect((await list({ targetPage: 'another-page' })).body.items).toEqual([]);
    const byAlice = await list({ authors: alice.user.id });
    expect(ids(byAlice.body.items)).toEqual(posted.filter((p) => p.by === alice.user.id).map((p) => p.id).reverse());
    // Repeated parameters, as the official client sends arrays, and comma-separated values.
    const repeated = await api.request('GET', `${commentsPath(space.id)}?authors=${alice.user.id}&authors=${bob.user.id}&order=asc`, { token: org.admin.token });
    expect(ids(repeated.body.items)).toEqual(posted.filter((p) => p.by !== org.admin.user.id).map((p) => p.id));
    const comma = await list({ authors: `${alice.user.id},${bob.user.id}`, order: 'asc' });
    expect(ids(comma.body.items)).toEqual(ids(repeated.body.items));
    const brackets = await api.request('GET', `${commentsPath(space.id)}?authors[]=${bob.user.id}`, { token: org.admin.token });
    expect(ids(brackets.body.items)).toEqual(posted.filter((p) => p.by === bob.user.id).map((p) => p.id).reverse());
    const combined = await list({ authors: alice.user.id, targetPage: pageId, status: 'open' });
    expect(combined.body.items).toEqual([]);
    const combined2 = await list({ authors: bob.user.id, targetPage: pageId, status: 'open' });
    expect(ids(combined2.body.items)).toEqual([posted[1]!.id]);
  });

  it('paginates with opaque cursors, also under filters', async () => {
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await list({ limit: 2, ...(page ? { page } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.items.length);
      seen.push(...ids(res.body.items));
      page = res.body.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual(posted.map((p) => p.id).reverse());
    const first = await list({ limit: 2, status: 'open', order: 'asc' });
    expect(ids(first.body.items)).toEqual([posted[0]!.id, posted[1]!.id]);
    const second = await list({ limit: 2, status: 'open', order: 'asc', page: first.body.next.page });
    expect(ids(second.body.items)).toEqual([posted[3]!.id, posted[4]!.id]);
    // A cursor belongs to its query: the page filter reads another partition.
    const foreign = await list({ targetPage: pageId, page: first.body.next.page });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/^page: /);
  });

  it('rejects bad query values naming the parameter, and hides the list from outsiders', async () => {
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'], [{ limit: 1001 }, 'limit'], [{ order: 'newest' }, 'order'], [{ status: 'closed' }, 'status'],
      [{ format: 'html' }, 'format'], [{ page: 'garbage' }, 'page'], [{ authors: Array.from({ length: 101 }, (_, i) => `u${i}`).join(',') }, 'authors'],
    ] as const) {
      const res = await list(query as Record<string, string | number>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api.request('GET', commentsPath(space.id))).status).toBe(401);
    const other = await newOrg();
    expect((await list({}, other.admin.token)).status).toBe(404);
    const reader = await org.member('read');
    const asReader = await list({}, reader.token);
    expect(asReader.status).toBe(200);
    expect(asReader.body.items[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });
});

describe('PUT /spaces/{spaceId}/comments/{commentId}', () => {
  it('resolves and reopens, setting and clearing resolvedAt/resolvedBy and keeping the open count', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('comment');
    const comment = await postOk(space, author.token);
    await postOk(space, author.token);
    expect(await openCount(space, org.admin.token)).toBe(2);

    const resolved = await put(space, comment.id, author.token, { resolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({
      ...comment, status: 'resolved', resolvedAt: expect.any(String), resolvedBy: presentedUser(api, author),
    });
    expect(await openCount(space, org.admin.token)).toBe(1);
    expect(await storedComment(space, comment.id)).toMatchObject({ status: 'resolved', resolvedBy: author.user.id, version: 2 });

    // Resolving a resolved comment changes nothing.
    const again = await put(space, comment.id, author.token, { resolved: true });
    expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
    expect(await openCount(space, org.admin.token)).toBe(1);

    // A space admin may reopen someone else's comment.
    const reopened = await put(space, comment.id, org.admin.token, { resolved: false });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual({ ...comment, permissions: { view: true, edit: false, reply: true, delete: true } });
    expect(reopened.body).not.toHaveProperty('resolvedAt');
    const stored = await storedComment(space, comment.id);
    expect(stored).toMatchObject({ status: 'open' });
    expect(stored).not.toHaveProperty('resolvedAt');
    expect(stored).not.toHaveProperty('resolvedBy');
    expect(await openCount(space, org.admin.token)).toBe(2);

    // Resolved by the admin this time.
    const byAdmin = await put(space, comment.id, org.admin.token, { resolved: true });
    expect(byAdmin.body.resolvedBy).toEqual(presentedUser(api, org.admin));
    expect(await openCount(space, org.admin.token)).toBe(1);
  });

  it('lets only the author edit the body (editedAt), and only the author or an admin resolve', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('comment');
    const someone = await org.member('edit');
    const comment = await postOk(space, author.token, { body: { markdown: 'First draft' } });
    advanceClock(1000);
    const edited = await put(space, comment.id, author.token, { body: { markdown: 'Second draft' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...comment, body: { markdown: 'Second draft' }, editedAt: expect.any(String) });
    expect(edited.body.editedAt > comment.postedAt).toBe(true);
    expect(await storedComment(space, comment.id)).toMatchObject({ markdown: 'Second draft', editedAt: edited.body.editedAt });

    for (const who of [someone, org.admin]) {
      const denied = await put(space, comment.id, who.token, { body: { markdown: 'Not mine' } });
      expect(denied.status).toBe(403);
      expect(denied.body.error.message).toBe('Only its author can edit the body of a comment');
    }
    const notResolver = await put(space, comment.id, someone.token, { resolved: true });
    expect(notResolver.status).toBe(403);
    const reader = await org.member('read');
    expect((await put(space, comment.id, reader.token, { addedReactions: ['👍'] })).status).toBe(403);
    // The body {} empties it.
    const emptied = await put(space, comment.id, author.token, { body: {} });
    expect(emptied.body.body).toEqual({ markdown: '' });
    expect(await storedComment(space, comment.id)).toMatchObject({ markdown: '', status: 'open', reactions: [] });
  });

  it('adds and removes reactions per user, with counts and users in reaction order', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const alice = await org.member('comment', 'Alice');
    const bob = await org.member('comment', 'Bob');
    const comment = await postOk(space, org.admin.token);
    const a = await put(space, comment.id, alice.token, { addedReactions: ['👍', '🎉'] });
    expect(a.status).toBe(200);
    const b = await put(space, comment.id, bob.token, { addedReactions: ['👍', '1f680'] });
    expect(b.body.reactions).toEqual([
      { emoji: '👍', count: 2, users: [{ user: presentedUser(api, alice), reactedAt: expect.any(String) }, { user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
      { emoji: '🎉', count: 1, users: [{ user: presentedUser(api, alice), reactedAt: a.body.reactions[1].users[0].reactedAt }] },
      { emoji: '1f680', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
    ]);
    // Adding twice counts once; removing a reaction the caller does not have changes nothing.
    const twice = await put(space, comment.id, alice.token, { addedReactions: ['👍'], removedReactions: ['1f680'] });
    expect(twice.body.reactions).toEqual(b.body.reactions);
    const removed = await put(space, comment.id, alice.token, { removedReactions: ['👍', '🎉'] });
    expect(removed.body.reactions).toEqual([
      { emoji: '👍', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
      { emoji: '1f680', count: 1, users: [{ user: presentedUser(api, bob), reactedAt: expect.any(String) }] },
    ]);
    const stored = await storedComment(space, comment.id);
    expect(stored!.reactions).toEqual([
      { emoji: '👍', users: [{ userId: bob.user.id, reactedAt: expect.any(String) }] },
      { emoji: '1f680', users: [{ userId: bob.user.id, reactedAt: expect.any(String) }] },
    ]);
    // Reactions do not change the body, the status or editedAt.
    expect(removed.body).not.toHaveProperty('editedAt');
    expect(removed.body.status).toBe('open');
  });

  it('refuses invalid updates naming the field and writes nothing; 404 for unknown comments', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
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
      const res = await put(space, comment.id, org.admin.token, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
    }
    expect(await storedComment(space, comment.id)).toMatchObject({ version: 1, reactions: [], status: 'open', markdown: 'Looks good' });
    // At most 50 different emoji on one comment.
    const fifty = Array.from({ length: 50 }, (_, i) => (0x1f600 + i).toString(16));
    expect((await put(space, comment.id, org.admin.token, { addedReactions: fifty })).body.reactions).toHaveLength(50);
    const tooMany = await put(space, comment.id, org.admin.token, { addedReactions: ['1f680'] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe('addedReactions: a comment carries at most 50 different emoji');
    expect((await put(space, comment.id, org.admin.token, { addedReactions: ['1f600'] })).status).toBe(200);
    expect((await put(space, 'unknown', org.admin.token, { resolved: true })).status).toBe(404);
    const other = await newOrg();
    expect((await put(space, comment.id, other.admin.token, { resolved: true })).status).toBe(404);
    expect((await api.request('PUT', `${commentsPath(space.id)}/${comment.id}`, { body: { resolved: true } })).status).toBe(401);
  });

  it('keeps every reaction when many users react at once', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => org.member('comment', `Reactor ${i}`)));
    const results = await Promise.all(users.map((u, i) => put(space, comment.id, u.token, { addedReactions: i % 2 ? ['👍', '🎉'] : ['👍'] })));
    expect(results.map((r) => r.status)).toEqual(users.map(() => 200));
    const final = await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: org.admin.token });
    const thumbs = final.body.reactions.find((r: { emoji: string }) => r.emoji === '👍');
    expect(thumbs.count).toBe(6);
    expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id).sort()).toEqual(users.map((u) => u.user.id).sort());
    expect(final.body.reactions.find((r: { emoji: string }) => r.emoji === '🎉').count).toBe(3);
    // Concurrent resolve and reopen never leave the open count wrong.
    const flips = await Promise.all([true, false, true, false, true].map((resolved) => put(space, comment.id, org.admin.token, { resolved })));
    expect(flips.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const status = (await storedComment(space, comment.id))!.status;
    expect(await openCount(space, org.admin.token)).toBe(status === 'open' ? 1 : 0);
  });
});

describe('replies', () => {
  it('posts replies, keeping the comment\'s replies and repliers true', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const alice = await org.member('comment', 'Alice');
    const bob = await org.member('comment', 'Bob');
    const comment = await postOk(space, org.admin.token);
    const repliesPath = `${commentsPath(space.id)}/${comment.id}/replies`;
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
    expect(await getRecord(commentReplyEntity.key({ spaceId: space.id, commentId: comment.id, replyId: first.body.id }))).toMatchObject({
      entityType: 'comment-reply', commentId: comment.id, postedBy: alice.user.id, markdown: 'Agreed',
    });
    advanceClock(1000);
    await api.request('POST', repliesPath, { token: bob.token, body: { body: { markdown: 'Me too' } } });
    advanceClock(1000);
    const third = await api.request('POST', repliesPath, { token: alice.token, body: { body: {} } });
    expect(third.body.body).toEqual({ markdown: '' });
    const read = await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: org.admin.token });
    expect(read.body.replies).toBe(3);
    expect(read.body.repliers).toEqual([
      { user: presentedUser(api, alice), count: 2, updatedAt: third.body.postedAt },
      { user: presentedUser(api, bob), count: 1, updatedAt: expect.any(String) },
    ]);
    // Replies do not change the open count.
    expect(await openCount(space, org.admin.token)).toBe(1);
  });

  it('reads a reply; edits its body by the author only; reactions by any commenter', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const alice = await org.member('comment', 'Alice');
    const bob = await org.member('comment', 'Bob');
    const comment = await postOk(space, org.admin.token);
    const reply = (await api.request('POST', `${commentsPath(space.id)}/${comment.id}/replies`, { token: alice.token, body: { body: { markdown: 'Agreed' } } })).body;
    const path = `${commentsPath(space.id)}/${comment.id}/replies/${reply.id}`;
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
    expect(await getRecord(commentReplyEntity.key({ spaceId: space.id, commentId: comment.id, replyId: reply.id }))).toMatchObject({
      markdown: 'Agreed, with a nit', reactions: [],
    });
    const invalid = await api.request('PUT', path, { token: alice.token, body: { resolved: true } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toBe('resolved: is not an allowed field');
  });

  it('403 for readers, 404 for unknown comments and replies, 400 naming the field', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
    const repliesPath = `${commentsPath(space.id)}/${comment.id}/replies`;
    const reader = await org.member('read');
    const denied = await api.request('POST', repliesPath, { token: reader.token, body: { body: { markdown: 'x' } } });
    expect(denied.status).toBe(403);
    expect((await api.request('POST', `${commentsPath(space.id)}/unknown/replies`, { token: org.admin.token, body: { body: { markdown: 'x' } } })).status).toBe(404);
    const missing = await api.request('POST', repliesPath, { token: org.admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('body: is required');
    const tooBig = await api.request('POST', repliesPath, { token: org.admin.token, body: { body: { markdown: 'x'.repeat(100 * 1024 + 1) } } });
    expect(tooBig.body.error.message).toBe('body.markdown: must be at most 100 KB');
    expect((await storedComment(space, comment.id))).toMatchObject({ replies: 0, repliers: [] });
    expect((await api.request('GET', `${repliesPath}/unknown`, { token: org.admin.token })).status).toBe(404);
    const reply = (await api.request('POST', repliesPath, { token: org.admin.token, body: { body: { markdown: 'x' } } })).body;
    // A reply is only found under its own comment, and not from another organization.
    const otherComment = await postOk(space, org.admin.token);
    expect((await api.request('GET', `${commentsPath(space.id)}/${otherComment.id}/replies/${reply.id}`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `${repliesPath}/${reply.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('PUT', `${repliesPath}/unknown`, { token: org.admin.token, body: { addedReactions: ['👍'] } })).status).toBe(404);
  });

  it('counts concurrent replies exactly', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
    const users = await Promise.all([0, 1, 2].map((i) => org.member('comment', `Replier ${i}`)));
    const posts = [...users, ...users].map((u) => api.request('POST', `${commentsPath(space.id)}/${comment.id}/replies`, { token: u.token, body: { body: { markdown: 'hi' } } }));
    const results = await Promise.all(posts);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const stored = (await storedComment(space, comment.id))!;
    expect(stored.replies).toBe(6);
    expect((stored.repliers as { count: number }[]).map((r) => r.count)).toEqual([2, 2, 2]);
    expect((await queryAll({ partition: `SPACE#${space.id}`, prefix: `COMMENT#${comment.id}#REPLY#` })).length).toBe(6);
  });
});

describe('DELETE /spaces/{spaceId}/comments/{commentId}', () => {
  it('deletes a comment with its replies, keeping the open count; 204 also when absent', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('comment');
    const comment = await postOk(space, author.token);
    const resolved = await postOk(space, author.token);
    await put(space, resolved.id, author.token, { resolved: true });
    for (const text of ['one', 'two', 'three']) {
      await api.request('POST', `${commentsPath(space.id)}/${comment.id}/replies`, { token: org.admin.token, body: { body: { markdown: text } } });
    }
    expect(await openCount(space, org.admin.token)).toBe(1);
    const res = await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: author.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await storedComment(space, comment.id)).toBeUndefined();
    expect(await queryAll({ partition: `SPACE#${space.id}`, prefix: `COMMENT#${comment.id}` })).toEqual([]);
    expect(await openCount(space, org.admin.token)).toBe(0);
    expect((await api.request('GET', `${commentsPath(space.id)}/${comment.id}`, { token: author.token })).status).toBe(404);
    // Deleting a resolved comment leaves the open count alone.
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${resolved.id}`, { token: author.token })).status).toBe(204);
    expect(await openCount(space, org.admin.token)).toBe(0);
    expect(await spaceComments(space)).toEqual([]);
    // Gone or never there: 204.
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: author.token })).status).toBe(204);
    expect((await api.request('DELETE', `${commentsPath(space.id)}/never`, { token: author.token })).status).toBe(204);
    expect((await api.request('GET', commentsPath(space.id), { token: author.token })).body.items).toEqual([]);
  });

  it('lets the author or a space admin delete; 403 for others; 404 across organizations', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const author = await org.member('comment');
    const editor = await org.member('edit');
    const comment = await postOk(space, author.token);
    const denied = await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: editor.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('Deleting a comment requires being its author or an admin of the space');
    const other = await newOrg();
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`)).status).toBe(401);
    expect(await storedComment(space, comment.id)).toBeDefined();
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: org.admin.token })).status).toBe(204);
    expect(await storedComment(space, comment.id)).toBeUndefined();
    expect(await openCount(space, org.admin.token)).toBe(0);
  });

  it('deletes more replies than one transaction holds', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comment = await postOk(space, org.admin.token);
    // 120 replies written directly (posting them one by one over HTTP would only be slower).
    const replies = Array.from({ length: 120 }, (_, i) => ({
      PutRequest: {
        Item: commentReplyEntity.toRecord({ spaceId: space.id, commentId: comment.id, replyId: `r${i}` }, {
          id: `r${i}`, spaceId: space.id, commentId: comment.id, postedBy: org.admin.user.id, postedAt: new Date().toISOString(),
          markdown: 'x', reactions: [], version: 1,
        }),
      },
    }));
    for (let i = 0; i < replies.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: replies.slice(i, i + 25) } }));
    }
    expect((await api.request('DELETE', `${commentsPath(space.id)}/${comment.id}`, { token: org.admin.token })).status).toBe(204);
    expect(await queryAll({ partition: `SPACE#${space.id}`, prefix: `COMMENT#${comment.id}` })).toEqual([]);
    expect(await openCount(space, org.admin.token)).toBe(0);
  });
});

describe('space counter', () => {
  it('counts open comments through posts, resolutions and deletions', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const comments = [];
    for (let i = 0; i < 3; i++) comments.push(await postOk(space, org.admin.token));
    expect(await openCount(space, org.admin.token)).toBe(3);
    await put(space, comments[0].id, org.admin.token, { resolved: true });
    await put(space, comments[1].id, org.admin.token, { resolved: true });
    expect(await openCount(space, org.admin.token)).toBe(1);
    await put(space, comments[1].id, org.admin.token, { resolved: false });
    expect(await openCount(space, org.admin.token)).toBe(2);
    await api.request('DELETE', `${commentsPath(space.id)}/${comments[2].id}`, { token: org.admin.token });
    expect(await openCount(space, org.admin.token)).toBe(1);
    const stored = await getRecord(spaceEntity.key({ spaceId: space.id }));
    expect(stored!.comments).toBe(1);
    const open = await api.request('GET', commentsPath(space.id), { token: org.admin.token, query: { status: 'open' } });
    expect(open.body.count).toBe(1);
  });
});
