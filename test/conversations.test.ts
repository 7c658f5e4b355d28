import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, newUser, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { getRecord, queryAll } from '../shared/db/operations.ts';
import { conversationEntity, conversationsClusterEntity } from '../shared/db/entities/conversation.ts';
import { issueIdOf } from '../shared/commands/conversations-ingest.ts';
import { KeywordAnalyzer } from '../shared/commands/conversations-analyzer.ts';
import { advanceClock } from '../shared/clock.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const base = (org: TestOrg) => `/orgs/${org.id}`;
const user = (body: string) => ({ type: 'message', role: 'user', body });
const assistant = (body: string) => ({ type: 'message', role: 'assistant', body });

async function ingest(org: TestOrg, body: Record<string, unknown>, token = org.admin.token) {
  const res = await api.request('POST', `${base(org)}/conversations`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return res;
}
const stored = async (org: TestOrg) => queryAll({ partition: `ORG#${org.id}`, prefix: 'CONV' });

describe('the keyword analyzer', () => {
  it('raises one issue for questions and error keywords, clustered by a normalized keyword', () => {
    const analyzer = new KeywordAnalyzer();
    expect(analyzer.analyze({ subject: 'Thanks', parts: [user('All good, thank you.') as never] })).toBeNull();
    expect(analyzer.analyze({ subject: '', parts: [assistant('Any error?') as never] })).toBeNull(); // only user messages count
    expect(analyzer.analyze({ subject: 'Webhooks', parts: [user('How do I configure them?') as never] })?.cluster)
      .toEqual({ id: 'webhook', label: 'Webhook', icon: 'circle-question', summary: 'Conversations about "webhook"' });
    const bug = analyzer.analyze({ subject: '', parts: [user('The export failed with an error on PDFs') as never] })!;
    expect(bug.cluster).toMatchObject({ id: 'export', icon: 'bug' });
    expect(bug.title).toBe('The export failed with an error on PDFs');
    expect(analyzer.analyze({ subject: '', parts: [user('Why?') as never] })!.cluster.id).toBe('general');
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
    const cluster = await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: 'webhook' }));
    expect(cluster).toMatchObject({ label: 'Webhook', issues: 1, conversations: 1, 'source:help.example.com': 1, status: 'active' });

    // Same id again (even with other content): nothing changes.
    await ingest(org, { ...body, subject: 'Changed', parts: [user('Another error?')] });
    expect((await getRecord(conversationEntity.key({ orgId: org.id, conversationId: 'conv-1' })))!.subject).toBe('Webhooks not firing');
    expect((await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: 'webhook' })))!.issues).toBe(1);
    expect(await stored(org)).toHaveLength(3); // conversation, issue, cluster

    // A conversation without a question or error keyword raises no issue.
    await ingest(org, { id: 'conv-2', subject: 'Kudos', parts: [user('Love the new editor.')] });
    expect((await getRecord(conversationEntity.key({ orgId: org.id, conversationId: 'conv-2' })))!.issue).toBeUndefined();
    expect(await stored(org)).toHaveLength(4);
  });

  it('counts concurrent ingestions into one cluster exactly', async () => {
    const org = await newOrg();
    await Promise.all(Array.from({ length: 6 }, (_, i) => ingest(org, { id: `c${i}`, subject: 'Billing question', parts: [user('How is billing computed?')] })));
    const cluster = await getRecord(conversationsClusterEntity.key({ orgId: org.id, clusterId: 'billing' }));
    expect(cluster).toMatchObject({ issues: 6, conversations: 6, 'source:api': 6 });
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
    expect(await stored(org)).toHaveLength(3);
  });
});

describe('reading conversations, issues and clusters', () => {
  async function seeded() {
    const org = await newOrg();
    await ingest(org, { id: 'a', subject: 'Search broken', parts: [user('Search returns an error')], metadata: { attributes: { source: 'intercom' } } });
    advanceClock(1000);
    await ingest(org, { id: 'b', subject: 'Search tips', parts: [user('How do I search by tag?')] });
    advanceClock(1000);
    await ingest(org, { id: 'c', subject: 'Exports', parts: [user('Can I export to PDF?')], metadata: { attributes: { source: 'intercom' } } });
    advanceClock(1000);
    await ingest(org, { id: 'd', subject: 'Hello', parts: [user('Nice product.')] });
    return org;
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
        createdAt: expect.any(String), ingestedAt: expect.any(String), conversation: 'a', cluster: 'search',
        urls: { location: `${api.url}/v1/orgs/${org.id}/conversations-issues/${issueIdOf(org.id, 'a')}` },
      },
      conversation: expect.objectContaining({ object: 'conversation', id: 'a' }),
    });
    const search = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { cluster: 'search' } });
    expect(search.body.items.map((i: { conversation: { id: string } }) => i.conversation.id)).toEqual(['b', 'a']);
    const byConversation = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { conversation: 'c' } });
    expect(byConversation.body.items.map((i: { issue: { cluster: string } }) => i.issue.cluster)).toEqual(['export']);
    const both = await api.request('GET', `${base(org)}/conversations-issues`, { token: org.admin.token, query: { cluster: 'search', conversation: 'c' } });
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
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual(['export', 'search']);
    const search = res.body.items[1];
    expect(search).toEqual({
      object: 'issues-cluster', id: 'search', label: 'Search', createdAt: expect.any(String), updatedAt: expect.any(String),
      icon: 'bug', summary: 'Conversations about "search"', weeklyPulse: [...Array(12).fill(0), 2], sources: { intercom: 1, api: 1 },
      stats: { issues: 2, conversations: 2, tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0 },
      urls: { location: `${api.url}/v1/orgs/${org.id}/conversations-issues?cluster=search`, app: expect.any(String) },
    });
    expect(search.updatedAt > search.createdAt).toBe(true);
    const asc = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { order: 'asc', sort: 'updatedAt' } });
    expect(asc.body.items.map((c: { id: string }) => c.id)).toEqual(['search', 'export']);
    const active = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'active', limit: 1 } });
    expect(active.body.items.map((c: { id: string }) => c.id)).toEqual(['export']);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'active', page: active.body.next.page } })).body.items.map((c: { id: string }) => c.id)).toEqual(['search']);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query: { status: 'archived' } })).body).toEqual({ items: [], count: 0 });
    for (const [query, field] of [[{ status: 'closed' }, 'status'], [{ sort: 'label' }, 'sort'], [{ order: 'up' }, 'order']] as const) {
      const bad = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token, query });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    // A week later the pulse shifts.
    advanceClock(7 * 24 * 60 * 60 * 1000);
    const later = await api.request('GET', `${base(org)}/conversations-clusters`, { token: org.admin.token });
    expect(later.body.items[1].weeklyPulse).toEqual([...Array(11).fill(0), 2, 0]);
    const other = await newOrg();
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/conversations-clusters`)).status).toBe(401);
  });
});
