import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, newUser, type TestOrg } from './support/api.ts';
import { getRecord } from '../shared/db/operations.ts';
import { conversationEntity, conversationIssueEntity, conversationsClusterEntity, conversationsClusteringEntity } from '../shared/db/entities/conversation.ts';
import { issueIdOf } from '../shared/commands/conversations/ingest.ts';
import { RuleAnalyzer } from '../shared/commands/conversations/analyzer.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { advanceClock, nowMs } from '../shared/clock.ts';
import { storedLike } from './support/stored.ts';

const api = useTestApi();

const base = (org: TestOrg) => `/orgs/${org.id}`;
const user = (body: string) => ({ type: 'message', role: 'user', body });
const assistant = (body: string) => ({ type: 'message', role: 'assistant', body });

async function ingest(org: TestOrg, body: Record<string, unknown>, token = org.admin.token) {
  const res = await api.request('POST', `${base(org)}/conversations`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return res;
}
/** Every conversation record of the organization: conversations, issues, clusters and the clustering watermark. */
const stored = async (org: TestOrg) => (await Promise.all([
  conversationEntity.key({ orgId: org.id, conversationId: '' }), conversationIssueEntity.key({ orgId: org.id, issueId: '' }),
  conversationsClusterEntity.key({ orgId: org.id, clusterId: '' }), conversationsClusteringEntity.key({ orgId: org.id }),
].map(storedLike))).flat();
/** Runs the clustering jobs the ingestions queued; returns how many ran. */
async function cluster() {
  let jobs = 0;
  for (let n = await pollOnce('jobs'); n > 0; n = await pollOnce('jobs')) jobs += n;
  return jobs;
}
const clusterOf = async (org: TestOrg, conversationId: string) =>
  (await getRecord(conversationIssueEntity.key({ orgId: org.id, issueId: issueIdOf(org.id, conversationId) }), true))?.cluster as string | undefined;

describe('the rule analyzer', () => {
  it('raises one issue for questions and reported failures, with the text clustering reads', () => {
    const analyzer = new RuleAnalyzer();
    expect(analyzer.analyze({ subject: 'Thanks', parts: [user('All good, thank you.') as never] })).toBeNull();
    expect(analyzer.analyze({ subject: '', parts: [assistant('Any error?') as never] })).toBeNull(); // only user messages count
    expect(analyzer.analyze({ subject: 'Webhooks', parts: [user('How do I configure them?') as never, assistant('Like this.') as never] }))
      .toEqual({ title: 'Webhooks', summary: 'How do I configure them?', kind: 'question', text: 'Webhooks How do I configure them?' });
    const bug = analyzer.analyze({ subject: '', parts: [user('The export failed with an error on PDFs') as never] })!;
    expect(bug).toMatchObject({ kind: 'error', title: 'The export failed with an error on PDFs' });
  });
});

describe('POST /orgs/{organizationId}/conversations', () => {
  it('stores the conversation, derives its issue and cluster, and is idempotent by id', async () => {
    const org = await newOrg();
    const body = {
      id: 'conv-1',
      metadata: { url: 'https://help.example.com/chat/1', attributes: { plan: 'pro' }, createdAt: '2026-01-02T03:04:05.000Z' },
      subject: 'Webhooks not firing',
      parts: [user('My webhooks stopped working, is there an error?'), assistant('Let me check.')],
    };
    const res = await ingest(org, body);
    expect(res.body).toBeUndefined();
    const conversation = await getRecord(conversationEntity.key({ orgId: org.id, conversationId: 'conv-1' }));
    expect(conversation).toMatchObject({
      id: 'conv-1', subject: 'Webhooks not firing', source: 'help.example.com', createdAt: '2026-01-02T03:04:05.000Z',
      parts: body.parts, metadata: body.metadata, issue: issueIdOf(org.id, 'conv-1'), ingestedBy: org.admin.user.id,
    });
    expect(await clusterOf(org, 'conv-1')).toBeUndefined(); // until the clustering job ran
    expect(await cluster()).toBe(1);
    const clusterId = (await clusterOf(org, 'conv-1'))!;
    const stats = await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId }), true);
    expect(stats).toMatchObject({ issues: 1, conversations: 1, 'source:help.example.com': 1, status: 'active', label: expect.stringMatching(/webhook/i) });

    // Same id again (even with other content): nothing changes, no clustering is queued.
    await ingest(org, { ...body, subject: 'Changed', parts: [user('Another error?')] });
    expect(await cluster()).toBe(0);
    expect((await getRecord(conversationEntity.key({ orgId: org.id, conversationId: 'conv-1' })))!.subject).toBe('Webhooks not firing');
    expect(await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId }), true)).toEqual(stats);
    expect(await stored(org)).toHaveLength(4); // conversation, issue, cluster, clustering watermark

    // A conversation without a question or error keyword raises no issue.
    await ingest(org, { id: 'conv-2', subject: 'Kudos', parts: [user('Love the new editor.')] });
    expect((await getRecord(conversationEntity.key({ orgId: org.id, conversationId: 'conv-2' })))!.issue).toBeUndefined();
    expect(await cluster()).toBe(0);
    expect(await stored(org)).toHaveLength(5);
  });

  it('clusters by meaning across conversations: stable ids, labels and summaries from the issues, real counts', async () => {
    const org = await newOrg();
    await ingest(org, { id: 'w1', subject: 'Webhook retries fail', parts: [user('Our webhook retries fail when the endpoint is slow.')] });
    await ingest(org, { id: 'b1', subject: 'Invoice twice', parts: [user('Why were we charged twice on the invoice?')] });
    const twoWeeksAgo = new Date(nowMs() - 14 * 24 * 60 * 60 * 1000).toISOString();
    await ingest(org, { id: 'w2', subject: 'Retries of webhooks', parts: [user('Are webhooks retried after a failed delivery?')], metadata: { createdAt: twoWeeksAgo } });
    await ingest(org, { id: 'b2', subject: 'Billing', parts: [user('Where do I download the invoice for billing?')] });
    await cluster();
    const webhooks = await clusterOf(org, 'w1');
    const billing = await clusterOf(org, 'b1');
    expect(await clusterOf(org, 'w2')).toBe(webhooks);
    expect(await clusterOf(org, 'b2')).toBe(billing);
    expect(webhooks).not.toBe(billing);
    const res = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token });
    const byId = new Map(res.body.items.map((c: { id: string }) => [c.id, c]));
    expect(res.body.items).toHaveLength(2);
    expect(byId.get(webhooks)).toMatchObject({ label: expect.stringMatching(/webhook/i), summary: expect.stringMatching(/^2 issues about .*webhook/i), icon: 'bug', stats: { issues: 2, conversations: 2 } });
    expect(byId.get(billing)).toMatchObject({ label: expect.stringMatching(/invoice|billing/i), icon: 'circle-question', stats: { issues: 2, conversations: 2 } });

    // A third webhook conversation joins the same cluster (same id), the billing cluster is not rewritten.
    const billingBefore = await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: billing! }), true);
    advanceClock(1000);
    await ingest(org, { id: 'w3', subject: 'Webhook delivery retries', parts: [user('The webhook delivery is never retried, is that a bug?')] });
    await cluster();
    expect(await clusterOf(org, 'w3')).toBe(webhooks);
    expect(await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: webhooks! }), true)).toMatchObject({ issues: 3 });
    // weeklyPulse: issues per week of their conversation's date, the last 12 weeks, current week last.
    const after = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token });
    expect(after.body.items.find((c: { id: string }) => c.id === webhooks).weeklyPulse).toEqual([...Array(9).fill(0), 1, 0, 2]);
    expect(await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: billing! }), true)).toEqual(billingBefore);
  });

  it('counts concurrent ingestions into one cluster exactly', async () => {
    const org = await newOrg();
    await Promise.all(Array.from({ length: 6 }, (_, i) => ingest(org, { id: `c${i}`, subject: 'Billing question', parts: [user('How is billing computed?')] })));
    await cluster();
    const ids = new Set(await Promise.all(Array.from({ length: 6 }, (_, i) => clusterOf(org, `c${i}`))));
    expect(ids.size).toBe(1);
    const stats = await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: [...ids][0]! }), true);
    expect(stats).toMatchObject({ issues: 6, conversations: 6, 'source:api': 6 });
  });

  it('rejects bad bodies naming the field and writes nothing', async () => {
    const org = await newOrg();
    const ok = { id: 'x', parts: [user('Why?')] };
    for (const [body, field] of [
      [{}, 'id'], [{ parts: ok.parts }, 'id'], [{ ...ok, id: 'a/b' }, 'id'], [{ id: 'x' }, 'parts'], [{ ...ok, parts: [] }, 'parts'],
      [{ ...ok, parts: [{ type: 'note', role: 'user', body: 'x' }] }, 'parts.0.type'], [{ ...ok, parts: [{ type: 'message', body: 'x' }] }, 'parts.0.role'],
      [{ ...ok, parts: [{ type: 'message', role: 'user', body: 3 }] }, 'parts.0.body'], [{ ...ok, subject: 5 }, 'subject'],
      [{ ...ok, metadata: { url: 'not a url' } }, 'metadata.url'], [{ ...ok, metadata: { attributes: { a: 1 } } }, 'metadata.attributes.a'],
      [{ ...ok, metadata: { createdAt: 'yesterday' } }, 'metadata.createdAt'], [{ ...ok, extra: true }, 'extra'],
      [{ ...ok, parts: Array.from({ length: 101 }, () => user('x')) }, 'parts'],
    ] as const) {
      const res = await api.request('POST', `${base(org)}/conversations`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
    }
    expect(await stored(org)).toHaveLength(0);
  });

  it('needs ingestConversations (edit): 403 below, 404 across organizations, 401 without token', async () => {
    const org = await newOrg();
    const body = { id: 'p', parts: [user('Why?')] };
    const commenter = await org.member('comment');
    expect((await api.request('POST', `${base(org)}/conversations`, { token: commenter.token, body })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('POST', `${base(org)}/conversations`, { token: other.admin.token, body })).status).toBe(404);
    expect((await api.request('POST', `${base(org)}/conversations`, { body })).status).toBe(401);
    expect(await stored(org)).toHaveLength(0);
    const editor = await org.member('edit');
    await ingest(org, body, editor.token);
    await cluster();
    expect(await stored(org)).toHaveLength(4); // conversation, issue, cluster, watermark
  });
});

describe('reading conversations, issues and clusters', () => {
  /** a and b are about search, c about exports, d raises no issue; clustered after each ingestion. */
  async function seeded() {
    const org = await newOrg();
    await ingest(org, { id: 'a', subject: 'Search broken', parts: [user('Search returns an error')], metadata: { attributes: { source: 'intercom' } } });
    await cluster();
    advanceClock(1000);
    await ingest(org, { id: 'b', subject: 'Search tips', parts: [user('How do I search by tag?')] });
    await cluster();
    advanceClock(1000);
    await ingest(org, { id: 'c', subject: 'Exports', parts: [user('Can I export to PDF?')], metadata: { attributes: { source: 'intercom' } } });
    await cluster();
    advanceClock(1000);
    await ingest(org, { id: 'd', subject: 'Hello', parts: [user('Nice product.')] });
    await cluster();
    return Object.assign(org, { search: (await clusterOf(org, 'a'))!, exports: (await clusterOf(org, 'c'))! });
  }

  it('GET conversations: newest first, source filter, pagination', async () => {
    const org = await seeded();
    const reader = await org.member('read');
    const all = await api.request('GET', `${base(org)}/conversations`, { token: reader.token });
    expect(all.status).toBe(200);
    expect(all.body.items.map((c: { id: string }) => c.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(all.body.items[3]).toEqual({
      object: 'conversation', id: 'a', subject: 'Search broken', createdAt: expect.any(String), processedAt: expect.any(String), source: 'intercom',
      urls: { location: `${api.url}/v1/orgs/${org.id}/conversations/a` },
    });
    const intercom = await api.request('GET', `${base(org)}/conversations`, { token: reader.token, query: { source: 'intercom' } });
    expect(intercom.body.items.map((c: { id: string }) => c.id)).toEqual(['c', 'a']);
    const first = await api.request('GET', `${base(org)}/conversations`, { token: reader.token, query: { limit: 3 } });
    expect(first.body.count).toBe(3);
    const second = await api.request('GET', `${base(org)}/conversations`, { token: reader.token, query: { limit: 3, page: first.body.next.page } });
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: 'a' })], count: 1 });
    const bad = await api.request('GET', `${base(org)}/conversations`, { token: reader.token, query: { limit: 1001 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^limit: /);
  });

  it('GET a conversation by id: {conversation, parts, metadata}; 404 when unknown or in another org', async () => {
    const org = await seeded();
    const res = await api.request('GET', `${base(org)}/conversations/a`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      conversation: expect.objectContaining({ object: 'conversation', id: 'a' }),
      parts: [{ type: 'message', role: 'user', body: 'Search returns an error' }],
      metadata: { attributes: { source: 'intercom' } },
    });
    expect((await api.request('GET', `${base(org)}/conversations/zzz`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${other.id}/conversations/a`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/conversations/a`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', `${base(org)}/conversations/a`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/conversations/a`)).status).toBe(401);
    const stranger = await newUser('Stranger');
    expect((await api.request('GET', `${base(org)}/conversations`, { token: stranger.token })).status).toBe(404);
  });

  it('GET conversations-issues with cluster and conversation filters, and an issue by id', async () => {
    const org = await seeded();
    const all = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token });
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: { conversation: { id: string } }) => i.conversation.id)).toEqual(['c', 'b', 'a']);
    const issueA = all.body.items[2];
    expect(issueA).toEqual({
      issue: {
        object: 'conversation-issue', id: issueIdOf(org.id, 'a'), title: 'Search broken', summary: 'Search returns an error',
        createdAt: expect.any(String), ingestedAt: expect.any(String), conversation: 'a', cluster: org.search,
        urls: { location: `${api.url}/v1/orgs/${org.id}/conversations-issues/${issueIdOf(org.id, 'a')}` },
      },
      conversation: expect.objectContaining({ object: 'conversation', id: 'a' }),
    });
    expect(await clusterOf(org, 'b')).toBe(org.search);
    const search = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { cluster: org.search } });
    expect(search.body.items.map((i: { conversation: { id: string } }) => i.conversation.id)).toEqual(['b', 'a']);
    const byConversation = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { conversation: 'c' } });
    expect(byConversation.body.items.map((i: { issue: { cluster: string } }) => i.issue.cluster)).toEqual([org.exports]);
    const both = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { cluster: org.search, conversation: 'c' } });
    expect(both.body).toEqual({ items: [], count: 0 });
    const page1 = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { limit: 2 } });
    const page2 = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { limit: 2, page: page1.body.next.page } });
    expect(page2.body.items.map((i: { conversation: { id: string } }) => i.conversation.id)).toEqual(['a']);
    expect((await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { page: 'garbage' } })).status).toBe(400);

    const one = await api.request('GET', `${base(org)}/conversations-issues/${issueA.issue.id}`, { token: org.admin.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(issueA);
    expect((await api.request('GET', `${base(org)}/conversations-issues/nope`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${other.id}/conversations-issues/${issueA.issue.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/conversations-issues`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', `${base(org)}/conversations-issues`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/conversations-issues/${issueA.issue.id}`)).status).toBe(401);
  });

  it('GET conversations-clusters: by updatedAt, order, status filter, stats, sources, weekly pulse', async () => {
    const org = await seeded();
    const res = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([org.exports, org.search]);
    const search = res.body.items[1];
    expect(search).toEqual({
      object: 'issues-cluster', id: org.search, label: expect.stringMatching(/^Search/), createdAt: expect.any(String), updatedAt: expect.any(String),
      icon: 'bug', summary: expect.stringMatching(/^2 issues about search/), weeklyPulse: [...Array(11).fill(0), 2], sources: { intercom: 1, api: 1 },
      stats: { issues: 2, conversations: 2, tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0 },
      urls: { location: `${api.url}/v1/orgs/${org.id}/conversations-issues?cluster=${org.search}`, app: expect.any(String) },
    });
    expect(search.updatedAt > search.createdAt).toBe(true);
    const asc = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { order: 'asc', sort: 'updatedAt' } });
    expect(asc.body.items.map((c: { id: string }) => c.id)).toEqual([org.search, org.exports]);
    const active = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'active', limit: 1 } });
    expect(active.body.items.map((c: { id: string }) => c.id)).toEqual([org.exports]);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'active', page: active.body.next.page } })).body.items.map((c: { id: string }) => c.id)).toEqual([org.search]);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'archived' } })).body).toEqual({ items: [], count: 0 });
    for (const [query, field] of [[{ status: 'closed' }, 'status'], [{ sort: 'label' }, 'sort'], [{ order: 'up' }, 'order']] as const) {
      const bad = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    // A week later the pulse shifts.
    advanceClock(7 * 24 * 60 * 60 * 1000);
    const later = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token });
    expect(later.body.items[1].weeklyPulse).toEqual([...Array(10).fill(0), 2, 0]);
    const other = await newOrg();
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`)).status).toBe(401);
  });
});
