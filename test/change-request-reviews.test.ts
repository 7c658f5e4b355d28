import { describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import type { Api, ChangeRequestReviewStatus } from '../node_modules/@gitbook/api/dist/client.d.ts';
import { useTestApi, newOrg, presentedUser, type TestOrg, type TestUser } from './support/api.ts';
import { createSpace } from './support/factories.ts';

const api = useTestApi();

interface Fixture {
  org: TestOrg;
  spaceId: string;
  /** Creates change requests (edit role). */
  author: TestUser;
  /** The reviewer merge rules name (review role). */
  named: TestUser;
  /** Another reviewer, never named by a rule (review role). */
  other: TestUser;
  reader: TestUser;
  commenter: TestUser;
}

async function fixture(): Promise<Fixture> {
  const org = await newOrg();
  const space = await createSpace(api, org);
  return {
    org,
    spaceId: space.id,
    author: await org.member('edit', 'Author'),
    named: await org.member('review', 'Named'),
    other: await org.member('review', 'Other'),
    reader: await org.member('read', 'Reader'),
    commenter: await org.member('comment', 'Commenter'),
  };
}

const crPath = (f: Fixture, crId: string) => `/spaces/${f.spaceId}/change-requests/${crId}`;

/** A change request by the author holding one new page. */
async function changeRequest(f: Fixture): Promise<string> {
  const cr = await api.request('POST', `/spaces/${f.spaceId}/change-requests`, { token: f.author.token, body: { subject: 'Change' } });
  expect(cr.status).toBe(201);
  await edit(f, cr.body.id);
  return cr.body.id;
}

async function edit(f: Fixture, crId: string): Promise<void> {
  const res = await api.request('POST', `${crPath(f, crId)}/content`, {
    token: f.author.token, body: { changes: [{ operation: 'insert_page', title: `Page ${Math.random()}`, document: { markdown: 'Text.\n' } }] },
  });
  expect(res.status).toBe(200);
}

async function review(f: Fixture, crId: string, who: TestUser, status: 'approved' | 'changes-requested') {
  const res = await api.request('POST', `${crPath(f, crId)}/reviews`, { token: who.token, body: { status } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function requestReview(f: Fixture, crId: string, users: TestUser[]) {
  const res = await api.request('POST', `${crPath(f, crId)}/requested-reviewers`, { token: f.author.token, body: { users: users.map((u) => u.user.id) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function setSpaceRules(f: Fixture, mergeRules: unknown) {
  const res = await api.request('PATCH', `/spaces/${f.spaceId}`, { token: f.org.admin.token, body: { mergeRules } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function spaceRevision(f: Fixture): Promise<string> {
  return (await api.request('GET', `/spaces/${f.spaceId}`, { token: f.org.admin.token })).body.revision;
}

type Scenario = 'no review' | 'approval by another reviewer' | 'approval by the named reviewer' | 'changes requested by the named reviewer' | 'stale approval';
const scenarios: Scenario[] = ['no review', 'approval by another reviewer', 'approval by the named reviewer', 'changes requested by the named reviewer', 'stale approval'];

/** Reviews of one scenario on a change request where the named reviewer was requested. */
async function play(f: Fixture, crId: string, scenario: Scenario): Promise<void> {
  await requestReview(f, crId, [f.named]);
  if (scenario === 'approval by another reviewer') await review(f, crId, f.other, 'approved');
  if (scenario === 'approval by the named reviewer') await review(f, crId, f.named, 'approved');
  if (scenario === 'changes requested by the named reviewer') await review(f, crId, f.named, 'changes-requested');
  if (scenario === 'stale approval') {
    await review(f, crId, f.named, 'approved');
    await edit(f, crId);
  }
}

/** Expected merge status per scenario, in the order of `scenarios`. */
const matrix: { name: string; rules: (f: Fixture) => unknown; org?: boolean; rule?: string; expected: number[] }[] = [
  { name: 'none', rules: () => ({ type: 'none' }), expected: [200, 200, 200, 200, 200] },
  { name: 'inherit (organization: none)', rules: () => ({ type: 'inherit' }), expected: [200, 200, 200, 200, 200] },
  {
    name: 'require_specific_reviewers', rule: 'require_specific_reviewers',
    rules: (f) => ({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }] }),
    expected: [403, 403, 200, 403, 403],
  },
  {
    name: 'require_specific_reviewers from the organization (space inherits)', rule: 'require_specific_reviewers', org: true,
    rules: (f) => ({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }] }),
    expected: [403, 403, 200, 403, 403],
  },
  {
    name: 'require_one_of_specific_reviewers', rule: 'require_one_of_specific_reviewers',
    rules: (f) => ({ type: 'rules', rules: [{ rule: 'require_one_of_specific_reviewers', users: [f.named.user.id, f.org.admin.user.id] }] }),
    expected: [403, 403, 200, 403, 403],
  },
  {
    name: 'require_at_least_one_review', rule: 'require_at_least_one_review',
    rules: () => ({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] }),
    expected: [403, 200, 200, 200, 403],
  },
  {
    name: 'require_at_least_one_approved_review', rule: 'require_at_least_one_approved_review',
    rules: () => ({ type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] }),
    expected: [403, 200, 200, 403, 403],
  },
  {
    name: 'require_all_reviews_approved', rule: 'require_all_reviews_approved',
    rules: () => ({ type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] }),
    expected: [403, 403, 200, 403, 403],
  },
];

describe('merge rules at merge time', () => {
  for (const row of matrix) {
    it(`${row.name}: ${scenarios.map((s, i) => `${s} → ${row.expected[i]}`).join(', ')}`, async () => {
      const f = await fixture();
      if (row.org) {
        const res = await api.request('PATCH', `/orgs/${f.org.id}`, { token: f.org.admin.token, body: { mergeRules: row.rules(f) } });
        expect(res.status).toBe(200);
      } else {
        await setSpaceRules(f, row.rules(f));
      }
      const outcomes: number[] = [];
      for (const scenario of scenarios) {
        const crId = await changeRequest(f);
        await play(f, crId, scenario);
        const before = await spaceRevision(f);
        const crBefore = (await api.request('GET', crPath(f, crId), { token: f.author.token })).body;
        const res = await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.author.token });
        outcomes.push(res.status);
        if (res.status === 403) {
          expect(res.body.error.message).toMatch(new RegExp(`^This change request .*\\(merge rule: ${row.rule}\\)$`));
          expect(res.body.error.mergeRules[0]).toEqual({ rule: row.rule, message: res.body.error.message });
          // Nothing merged: the primary revision and the change request are as they were.
          expect(await spaceRevision(f)).toBe(before);
          expect((await api.request('GET', crPath(f, crId), { token: f.author.token })).body).toEqual(crBefore);
        } else {
          expect(res.body, JSON.stringify(res.body)).toEqual({ revision: expect.any(String), result: 'merge' });
          expect(await spaceRevision(f)).toBe(res.body.revision);
        }
      }
      expect(outcomes).toEqual(row.expected);
    });
  }

  it('names the missing reviewer, binds admins too, and lets allow_bypass users through', async () => {
    const f = await fixture();
    await setSpaceRules(f, { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }] });
    const crId = await changeRequest(f);
    const refused = await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.org.admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      `This change request needs an approving review of its current revision from each of ${f.named.user.id} (merge rule: require_specific_reviewers)`,
    );
    await setSpaceRules(f, {
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }, { rule: 'allow_bypass', users: [f.org.admin.user.id] }],
    });
    expect((await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.author.token })).status).toBe(403);
    expect((await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.org.admin.token })).status).toBe(200);
  });

  it('checks subject, description, author and up-to-date rules, and refuses rules it cannot evaluate', async () => {
    const f = await fixture();
    await setSpaceRules(f, {
      type: 'rules',
      rules: [{ rule: 'require_change_request_subject' }, { rule: 'require_change_request_description' }, { rule: 'require_author_to_merge' }],
    });
    const crId = await changeRequest(f);
    await api.request('PATCH', crPath(f, crId), { token: f.author.token, body: { subject: '' } });
    const refused = await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.org.admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.mergeRules.map((r: { rule: string }) => r.rule)).toEqual([
      'require_change_request_subject', 'require_change_request_description', 'require_author_to_merge',
    ]);
    const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };
    expect((await api.request('PATCH', crPath(f, crId), { token: f.author.token, body: { subject: 'Now named', description } })).status).toBe(200);
    expect((await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.org.admin.token })).body.error.mergeRules)
      .toEqual([{ rule: 'require_author_to_merge', message: expect.stringContaining(f.author.user.id) }]);
    expect((await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.author.token })).status).toBe(200);

    await setSpaceRules(f, { type: 'rules', rules: [{ rule: 'require_up_to_date_change_request' }] });
    const first = await changeRequest(f);
    const second = await changeRequest(f);
    expect((await api.request('POST', `${crPath(f, first)}/merge`, { token: f.author.token })).status).toBe(200);
    const outdated = await api.request('POST', `${crPath(f, second)}/merge`, { token: f.author.token });
    expect(outdated.status).toBe(403);
    expect(outdated.body.error.message).toMatch(/not up to date .*\(merge rule: require_up_to_date_change_request\)$/);
    expect((await api.request('POST', `${crPath(f, second)}/update`, { token: f.author.token })).status).toBe(200);
    expect((await api.request('POST', `${crPath(f, second)}/merge`, { token: f.author.token })).status).toBe(200);

    await setSpaceRules(f, { type: 'rules', rules: [{ rule: 'custom', expression: 'true', message: 'Needs a QA sign-off' }] });
    const custom = await api.request('POST', `${crPath(f, await changeRequest(f))}/merge`, { token: f.org.admin.token });
    expect(custom.status).toBe(403);
    expect(custom.body.error.message).toBe('Needs a QA sign-off (merge rule: custom)');
  });
});

describe('merge against a concurrent review', () => {
  it('never merges on an approval withdrawn at the same moment', async () => {
    const f = await fixture();
    await setSpaceRules(f, { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }] });
    for (let round = 0; round < 4; round++) {
      const crId = await changeRequest(f);
      await review(f, crId, f.named, 'approved');
      const [merge, withdrawal] = await Promise.all([
        api.request('POST', `${crPath(f, crId)}/merge`, { token: f.author.token }),
        api.request('POST', `${crPath(f, crId)}/reviews`, { token: f.named.token, body: { status: 'changes-requested' } }),
      ]);
      // Either the merge came first (the late review finds it merged) or the review did (the merge is refused).
      expect([[200, 409], [403, 201]]).toContainEqual([merge.status, withdrawal.status]);
      const status = (await api.request('GET', crPath(f, crId), { token: f.author.token })).body.status;
      expect(status).toBe(merge.status === 200 ? 'merged' : 'draft');
    }
  });
});

describe('requested reviewers', () => {
  it('requests, lists and removes reviewers with the public interface shapes', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    const cr = (await api.request('GET', crPath(f, crId), { token: f.author.token })).body;
    const res = await api.request('POST', `${crPath(f, crId)}/requested-reviewers`, {
      token: f.author.token, body: { users: [f.named.user.id, f.reader.user.id, f.named.user.id], subject: 'Ready for review' },
    });
    expect(res.status).toBe(200);
    const requested = (u: TestUser) => ({
      object: 'change-request-requested-reviewer', revision: cr.revision, requestedBy: presentedUser(api, f.author),
      createdAt: expect.any(String), kind: 'user', user: presentedUser(api, u),
    });
    expect(res.body).toEqual({ users: [requested(f.named), requested(f.reader)] });
    expect((await api.request('GET', crPath(f, crId), { token: f.author.token })).body.subject).toBe('Ready for review');
    const list = await api.request('GET', `${crPath(f, crId)}/requested-reviewers`, { token: f.reader.token, query: { limit: 1 } });
    expect(list.body).toEqual({ items: [requested(f.named)], count: 1, next: { page: expect.any(String) } });
    const rest = await api.request('GET', `${crPath(f, crId)}/requested-reviewers`, { token: f.reader.token, query: { limit: 1, page: list.body.next.page } });
    expect(rest.body).toEqual({ items: [requested(f.reader)], count: 1 });
    // The change request list's requestedReviewer filter follows the requests (the request moved it to open, the default status).
    const filtered = await api.request('GET', `/spaces/${f.spaceId}/change-requests`, { token: f.author.token, query: { requestedReviewer: f.named.user.id } });
    expect(filtered.body.items.map((c: { id: string }) => c.id)).toEqual([crId]);

    expect((await api.request('DELETE', `${crPath(f, crId)}/requested-reviewers/${f.named.user.id}`, { token: f.author.token })).status).toBe(205);
    expect((await api.request('DELETE', `${crPath(f, crId)}/requested-reviewers/${f.named.user.id}`, { token: f.author.token })).status).toBe(204);
    // A requested user may decline their own request.
    expect((await api.request('DELETE', `${crPath(f, crId)}/requested-reviewers/${f.reader.user.id}`, { token: f.reader.token })).status).toBe(205);
    expect((await api.request('GET', `${crPath(f, crId)}/requested-reviewers`, { token: f.author.token })).body).toEqual({ items: [], count: 0 });
    const after = await api.request('GET', `/spaces/${f.spaceId}/change-requests`, { token: f.author.token, query: { requestedReviewer: f.named.user.id } });
    expect(after.body.items).toEqual([]);
  });

  it('asking for reviews moves a draft to open, in the space counters and the lists reviewers read', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    const space = async () => (await api.request('GET', `/spaces/${f.spaceId}`, { token: f.author.token })).body;
    const before = await space();
    expect((await api.request('GET', crPath(f, crId), { token: f.author.token })).body.status).toBe('draft');
    await requestReview(f, crId, [f.named]);
    const cr = (await api.request('GET', crPath(f, crId), { token: f.author.token })).body;
    expect(cr.status).toBe('open');
    expect(await space()).toMatchObject({
      changeRequestsDraft: before.changeRequestsDraft - 1, changeRequestsOpen: before.changeRequestsOpen + 1, changeRequests: before.changeRequests,
    });
    // What the reviewer lists by default (status open): the space's and the organization's.
    const mine = { requestedReviewer: f.named.user.id };
    expect((await api.request('GET', `/spaces/${f.spaceId}/change-requests`, { token: f.named.token, query: mine })).body.items.map((c: { id: string }) => c.id)).toEqual([crId]);
    expect((await api.request('GET', `/orgs/${f.org.id}/change-requests`, { token: f.named.token, query: mine })).body.items.map((c: { id: string }) => c.id)).toEqual([crId]);
    // Asking again, or once open, changes no counter; an archived one is not reopened by it (409).
    await requestReview(f, crId, [f.other]);
    expect(await space()).toMatchObject({ changeRequestsDraft: before.changeRequestsDraft - 1, changeRequestsOpen: before.changeRequestsOpen + 1 });
    expect((await api.request('PATCH', crPath(f, crId), { token: f.author.token, body: { status: 'archived' } })).status).toBe(200);
    const archived = await api.request('POST', `${crPath(f, crId)}/requested-reviewers`, { token: f.author.token, body: { users: [f.named.user.id] } });
    expect(archived.status).toBe(409);
    expect((await api.request('GET', crPath(f, crId), { token: f.author.token })).body.status).toBe('archived');
  });

  it('refuses callers below edit, the author as reviewer, users who cannot read the space, and bad bodies', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    const path = `${crPath(f, crId)}/requested-reviewers`;
    for (const who of [f.reader, f.commenter]) {
      const res = await api.request('POST', path, { token: who.token, body: { users: [f.named.user.id] } });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('Requesting or removing reviewers requires the edit role on the space');
    }
    await requestReview(f, crId, [f.named]);
    expect((await api.request('DELETE', `${path}/${f.named.user.id}`, { token: f.commenter.token })).status).toBe(403);
    const outsider = await (await newOrg()).member('admin');
    const guest = await f.org.member(null);
    const cases: [unknown, string][] = [
      [{ users: [f.author.user.id] }, `users.0: ${f.author.user.id} is the change request's author, who cannot review it`],
      [{ users: [f.named.user.id, outsider.user.id] }, `users.1: ${outsider.user.id} is not a member who can read this space`],
      [{ users: [guest.user.id] }, `users.0: ${guest.user.id} is not a member who can read this space`],
      [{ users: [] }, 'users: must name at least one user'],
      [{ users: 'x' }, 'users: must be an array of user ids'],
      [{ users: Array.from({ length: 51 }, (_, i) => `u${i}`) }, 'users: must name at most 50 users'],
      [{ users: [f.named.user.id], extra: 1 }, 'extra: is not an allowed field'],
    ];
    for (const [body, message] of cases) {
      const res = await api.request('POST', path, { token: f.author.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const missing = await api.request('POST', path, { token: f.author.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^users: /);
  });
});

describe('reviews', () => {
  it('submits, lists and gets reviews; a newer review, a new request or an edit makes one outdated', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    await requestReview(f, crId, [f.named]);
    const cr = (await api.request('GET', crPath(f, crId), { token: f.author.token })).body;
    const res = await api.request('POST', `${crPath(f, crId)}/reviews`, {
      token: f.named.token, body: { status: 'changes-requested', comment: { markdown: 'Please fix the title.' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'change-request-review', id: expect.any(String), revision: cr.revision,
      reviewer: presentedUser(api, f.named), requestedBy: presentedUser(api, f.author), status: 'changes-requested', outdated: false,
      comment: expect.objectContaining({ object: 'comment', body: { markdown: 'Please fix the title.' }, target: expect.objectContaining({ changeRequest: crId }) }),
      createdAt: expect.any(String), updatedAt: res.body.createdAt,
      urls: { location: `${api.url}/v1${crPath(f, crId)}/reviews/${res.body.id}` },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    // The review's comment is one of the change request's comments, and names its review (target.review).
    expect(res.body.comment.target).toEqual({ space: f.spaceId, revision: cr.revision, changeRequest: crId, review: res.body.id });
    expect((await api.request('GET', crPath(f, crId), { token: f.author.token })).body.comments).toBe(1);
    const plain = await api.request('POST', `${crPath(f, crId)}/comments`, { token: f.author.token, body: { body: { markdown: 'Fixed.' } } });
    expect(plain.body.target).toEqual({ space: f.spaceId, revision: cr.revision, changeRequest: crId });
    const listed = (await api.request('GET', `${crPath(f, crId)}/comments`, { token: f.author.token, query: { order: 'asc' } })).body.items;
    expect(listed.map((c: { target: { review?: string } }) => c.target.review)).toEqual([res.body.id, undefined]);
    expect((await api.request('DELETE', `${crPath(f, crId)}/comments/${plain.body.id}`, { token: f.author.token })).status).toBe(204);
    const got = await api.request('GET', `${crPath(f, crId)}/reviews/${res.body.id}`, { token: f.named.token });
    expect(got.body).toEqual(res.body);

    const approval = await review(f, crId, f.named, 'approved');
    const unrequested = await review(f, crId, f.other, 'approved');
    expect(unrequested).not.toHaveProperty('requestedBy');
    const outdated = (id: string) => api.request('GET', `${crPath(f, crId)}/reviews/${id}`, { token: f.author.token }).then((r) => r.body.outdated);
    expect([await outdated(res.body.id), await outdated(approval.id), await outdated(unrequested.id)]).toEqual([true, false, false]);
    const all = await api.request('GET', `${crPath(f, crId)}/reviews`, { token: f.author.token });
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([res.body.id, approval.id, unrequested.id]);
    const current = await api.request('GET', `${crPath(f, crId)}/reviews`, { token: f.author.token, query: { outdated: false } });
    expect(current.body.items.map((r: { id: string }) => r.id)).toEqual([approval.id, unrequested.id]);
    const old = await api.request('GET', `${crPath(f, crId)}/reviews`, { token: f.author.token, query: { outdated: true } });
    expect(old.body.items.map((r: { id: string }) => r.id)).toEqual([res.body.id]);

    // Asked again: the earlier review is superseded by the new request.
    await requestReview(f, crId, [f.other]);
    expect(await outdated(unrequested.id)).toBe(true);
    // An edit: every review of the earlier revision is outdated.
    await edit(f, crId);
    expect(await outdated(approval.id)).toBe(true);
    expect((await api.request('GET', `${crPath(f, crId)}/reviews`, { token: f.author.token, query: { outdated: false } })).body.items).toEqual([]);
  });

  it('needs the review role or a request, never the author, and an open change request', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    const path = `${crPath(f, crId)}/reviews`;
    for (const who of [f.reader, f.commenter, f.author]) {
      const res = await api.request('POST', path, { token: who.token, body: { status: 'approved' } });
      expect(res.status).toBe(403);
    }
    expect((await api.request('POST', path, { token: f.reader.token, body: { status: 'approved' } })).body.error.message)
      .toBe('Reviewing a change request requires the review role on the space, or a request for your review');
    // The author cannot review even with the review role (an admin's own change request).
    const own = await api.request('POST', `/spaces/${f.spaceId}/change-requests`, { token: f.org.admin.token, body: {} });
    const ownReview = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${own.body.id}/reviews`, { token: f.org.admin.token, body: { status: 'approved' } });
    expect(ownReview.status).toBe(403);
    expect(ownReview.body.error.message).toBe('The author of a change request cannot review it');
    // Asked, a reader may review.
    await requestReview(f, crId, [f.reader]);
    expect((await api.request('POST', path, { token: f.reader.token, body: { status: 'approved' } })).status).toBe(201);
    for (const [body, field] of [[{ status: 'maybe' }, 'status'], [{}, 'status'], [{ status: 'approved', comment: { document: {} } }, 'comment.document'], [{ status: 'approved', comment: { markdown: 'x'.repeat(100 * 1024 + 1) } }, 'comment.markdown']] as const) {
      const res = await api.request('POST', path, { token: f.named.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message.startsWith(`${field}: `), res.body.error.message).toBe(true);
    }
    expect((await api.request('GET', `${path}/nosuchreview`, { token: f.author.token })).status).toBe(404);
    expect((await api.request('POST', `${crPath(f, crId)}/merge`, { token: f.author.token })).status).toBe(200);
    const late = await api.request('POST', path, { token: f.named.token, body: { status: 'approved' } });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('The change request is merged: its reviews cannot change');
  });

  it('answers 404 to members of other organizations, whatever the operation', async () => {
    const f = await fixture();
    const crId = await changeRequest(f);
    const review1 = await review(f, crId, f.named, 'approved');
    const stranger = await (await newOrg()).member('admin');
    const calls: [string, string, unknown?][] = [
      ['GET', `${crPath(f, crId)}/reviews`], ['GET', `${crPath(f, crId)}/reviews/${review1.id}`],
      ['POST', `${crPath(f, crId)}/reviews`, { status: 'approved' }], ['GET', `${crPath(f, crId)}/requested-reviewers`],
      ['POST', `${crPath(f, crId)}/requested-reviewers`, { users: [stranger.user.id] }],
      ['DELETE', `${crPath(f, crId)}/requested-reviewers/${f.named.user.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, { token: stranger.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.message).toBe(`No space found with id ${f.spaceId}`);
    }
    expect((await api.request('GET', `${crPath(f, crId)}/reviews`, { token: f.named.token })).body.items).toHaveLength(1);
  });
});

describe('official client (@gitbook/api)', () => {
  it('requests a review, approves and merges under require_specific_reviewers through GitBookAPI', async () => {
    const f = await fixture();
    await setSpaceRules(f, { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [f.named.user.id] }] });
    const crId = await changeRequest(f);
    const client = (u: TestUser) => new GitBookAPI({ authToken: u.token, endpoint: api.url }) as unknown as Api<{ authToken?: string }>;
    const author = client(f.author);
    const refused = await author.spaces.mergeChangeRequest(f.spaceId, crId).catch((e: { code: number; errorMessage: string }) => e);
    expect(refused).toMatchObject({ code: 403, errorMessage: expect.stringContaining('(merge rule: require_specific_reviewers)') });
    const requested = await author.spaces.requestReviewersForChangeRequest(f.spaceId, crId, { users: [f.named.user.id] });
    expect(requested.data.users?.map((u) => (u.kind === 'user' ? u.user.id : undefined))).toEqual([f.named.user.id]);
    const listed = await author.spaces.getRequestedReviewersByChangeRequestId(f.spaceId, crId);
    expect(listed.data.items).toHaveLength(1);
    const submitted = await client(f.named).spaces.submitChangeRequestReview(f.spaceId, crId, { status: 'approved' as ChangeRequestReviewStatus, comment: { markdown: 'LGTM' } });
    expect(submitted.status).toBe(201);
    expect(submitted.data).toMatchObject({ object: 'change-request-review', status: 'approved', outdated: false, reviewer: { id: f.named.user.id } });
    const reviews = await author.spaces.getReviewsByChangeRequestId(f.spaceId, crId, { outdated: false });
    expect(reviews.data.items.map((r) => r.id)).toEqual([submitted.data.id]);
    const one = await author.spaces.getChangeRequestReviewById(f.spaceId, crId, submitted.data.id);
    expect(one.data.comment?.body).toEqual({ markdown: 'LGTM' });
    // Withdrawing the request keeps the review: the rule names users, not requests.
    const removed = await author.spaces.removeRequestedReviewerFromChangeRequest(f.spaceId, crId, f.named.user.id);
    expect(removed.status).toBe(205);
    const merged = await author.spaces.mergeChangeRequest(f.spaceId, crId);
    expect(merged.data.result).toBe('merge');
  });
});
