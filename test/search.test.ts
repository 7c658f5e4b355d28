import { describe, expect, it } from 'vitest';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { editContent, makePrimary, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { searchIndexes } from '../shared/content/search/revision-index.ts';
import { getRecord } from '../shared/db/operations.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { revisionEntity } from '../shared/db/entities/revision.ts';

const api = useTestApi();

const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(3);

/**
 * A space whose primary content is:
 *   Deployment           (title match for "deployment")
 *   Operations           (body match in a section, with a subpage)
 *     Runbooks
 */
async function docsSpace(org: TestOrg, title = 'Docs') {
  const { space, cr } = await spaceWithChangeRequest(api, org, title);
  await editContent(api, org, space.id, cr.id, [
    { operation: 'insert_page', document: { markdown: '# Deployment\n\nHow to ship the app to production.\n' } },
    {
      operation: 'insert_page',
      description: 'Running the service',
      document: {
        markdown: `# Operations\n\nWelcome to operations.\n\n## Rolling out\n\n${filler}Every deployment is announced in the channel. ${filler}\n\n### On Linux\n\nUse the package manager.\n`,
      },
    },
  ]);
  const pages = await pagesByTitle(api, org, space.id, cr.id);
  const revision = await editContent(api, org, space.id, cr.id, [
    { operation: 'insert_page', into: pages.Operations!.id, document: { markdown: '# Runbooks\n\nWhat to do when the pager rings: restart the deployment.\n' } },
  ]);
  await makePrimary(space.id, revision);
  return { space, cr, revision, pages: await pagesByTitle(api, org, space.id, cr.id) };
}

function search(org: TestOrg, spaceId: string, query: Record<string, string | number>, token = org.admin.token) {
  return api.request('GET', `/spaces/${spaceId}/search`, { token, query });
}

describe('GET /spaces/{spaceId}/search', () => {
  it('ranks a title match above body matches, with sections, excerpts, ancestors and urls', async () => {
    const org = await newOrg();
    const { space, pages } = await docsSpace(org);
    const res = await search(org, space.id, { query: 'deployment' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.items.map((i: { title: string }) => i.title)).toEqual(['Deployment', expect.any(String), expect.any(String)]);
    const [first, ...rest] = res.body.items;
    expect(first).toMatchObject({
      id: pages.Deployment!.id, title: 'Deployment', path: 'deployment', ancestors: [], rank: 1, resultType: 'page',
      urls: { app: `${config.appUrl}/s/${space.id}/deployment` },
    });
    expect(first.score).toBeGreaterThan(rest[0].score);

    const operations = rest.find((i: { title: string }) => i.title === 'Operations');
    expect(operations).toMatchObject({
      id: pages.Operations!.id, path: 'operations', description: 'Running the service', ancestors: [], resultType: 'section',
    });
    const section = operations.sections[0];
    expect(section).toMatchObject({
      id: 'rolling-out', title: 'Rolling out', path: 'operations#rolling-out', resultType: 'section',
      urls: { app: `${config.appUrl}/s/${space.id}/operations#rolling-out` },
    });
    // An excerpt of about 200 characters around the match, cut where text was left out.
    expect(section.body).toContain('Every deployment is announced');
    expect(section.body.length).toBeLessThanOrEqual(200);
    expect(section.body.startsWith('…')).toBe(true);
    expect(section.body.endsWith('…')).toBe(true);

    const runbooks = rest.find((i: { title: string }) => i.title === 'Runbooks');
    expect(runbooks).toMatchObject({ path: 'operations/runbooks', ancestors: [{ title: 'Operations' }] });
    expect(runbooks.sections).toEqual([expect.objectContaining({ id: '', title: 'Runbooks', path: 'operations/runbooks', body: expect.stringContaining('restart the deployment') })]);
  });

  it('gives heading paths of nested sections, prefix and typo-tolerant matches, and paginates', async () => {
    const org = await newOrg();
    const { space } = await docsSpace(org);
    const linux = await search(org, space.id, { query: 'package manager' });
    expect(linux.body.items[0].sections[0]).toMatchObject({ id: 'on-linux', title: 'Rolling out > On Linux', path: 'operations#on-linux' });
    expect((await search(org, space.id, { query: 'deploym' })).body.count).toBe(3);
    expect((await search(org, space.id, { query: 'deploymnet' })).body.count).toBe(3);
    expect((await search(org, space.id, { query: 'zzyzx' })).body).toEqual({ items: [], count: 0 });

    const first = await search(org, space.id, { query: 'deployment', limit: 2 });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next.page).toEqual(expect.any(String));
    const second = await search(org, space.id, { query: 'deployment', limit: 2, page: first.body.next.page });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].rank).toBe(3);
    expect(second.body.next).toBeUndefined();
    // A cursor belongs to its query.
    expect((await search(org, space.id, { query: 'operations', page: first.body.next.page })).status).toBe(400);
  });

  it('validates the query and hides spaces of other organizations', async () => {
    const org = await newOrg();
    const { space } = await docsSpace(org);
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /^query: is required/],
      [{ query: '' }, /^query: is required/],
      [{ query: 'q'.repeat(513) }, /^query: must be at most 512 characters/],
      [{ query: 'ok', limit: '1001' }, /^limit: /],
    ];
    for (const [query, message] of cases) {
      const res = await search(org, space.id, query);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await search(org, space.id, { query: 'q'.repeat(512) })).status).toBe(200);
    const reader = await org.member('read');
    expect((await search(org, space.id, { query: 'deployment' }, reader.token)).body.count).toBe(3);
    const other = await newOrg();
    expect((await search(org, space.id, { query: 'deployment' }, other.admin.token)).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/search`, { query: { query: 'x' } })).status).toBe(401);
    expect((await search(org, 'nope', { query: 'x' })).status).toBe(404);
  });

  it('builds the index once per revision, stores it in S3 and reuses it', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(api, org);
    const revision = await editContent(api, org, space.id, cr.id, [{ operation: 'insert_page', document: { markdown: '# Glossary\n\nA widget is a thing.\n' } }]);
    await makePrimary(space.id, revision);
    const manifest = revisionEntity.fromRecord((await getRecord(revisionEntity.key({ spaceId: space.id, revisionId: revision })))!).manifest;
    const key = searchIndexes.key(manifest);
    expect(key).toBe(`indexes/search/v2/${manifest}.json.gz`);

    const before = { ...searchIndexes.stats };
    expect((await search(org, space.id, { query: 'widget' })).body.count).toBe(1);
    expect(searchIndexes.stats.builds).toBe(before.builds + 1);
    await s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: key }));

    expect((await search(org, space.id, { query: 'thing' })).body.count).toBe(1);
    expect(searchIndexes.stats.builds).toBe(before.builds + 1);
    expect(searchIndexes.stats.memoryHits).toBe(before.memoryHits + 1);

    // Another instance (empty memory) reads the stored index instead of building it.
    searchIndexes.forgetCached();
    expect((await search(org, space.id, { query: 'glossary' })).body.items[0].title).toBe('Glossary');
    expect(searchIndexes.stats.builds).toBe(before.builds + 1);
    expect(searchIndexes.stats.loads).toBe(before.loads + 1);

    // Concurrent first searches of a new revision build it once.
    const next = await editContent(api, org, space.id, cr.id, [{ operation: 'insert_page', document: { markdown: '# Gadgets\n\nA gadget is a widget.\n' } }]);
    await makePrimary(space.id, next);
    const results = await Promise.all([1, 2, 3].map(() => search(org, space.id, { query: 'widget' })));
    expect(results.map((r) => r.body.count)).toEqual([2, 2, 2]);
    expect(searchIndexes.stats.builds).toBe(before.builds + 2);
    expect((await getRecord(spaceEntity.key({ spaceId: space.id })))!.revision).toBe(next);
  });
});

describe('GET /orgs/{organizationId}/search', () => {
  it('searches the readable spaces of the organization, spaces with hits only, best first', async () => {
    const org = await newOrg();
    const docs = await docsSpace(org, 'Docs');
    const { space: handbook, cr } = await spaceWithChangeRequest(api, org, 'Handbook');
    const revision = await editContent(api, org, handbook.id, cr.id, [
      { operation: 'insert_page', document: { markdown: '# Holidays\n\nAsk before a deployment freeze.\n' } },
    ]);
    await makePrimary(handbook.id, revision);
    await spaceWithChangeRequest(api, org, 'Empty');
    // Another organization's space with the same words is never searched.
    await docsSpace(await newOrg());

    const reader = await org.member('read');
    const res = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'deployment' } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const [first, second] = res.body.items;
    expect(first).toMatchObject({ type: 'space', id: docs.space.id, title: 'Docs' });
    expect(first.pages.map((p: { title: string }) => p.title)[0]).toBe('Deployment');
    expect(first.pages[0]).toMatchObject({ rank: 1, urls: { app: `${config.appUrl}/s/${docs.space.id}/deployment` } });
    expect(second).toMatchObject({ type: 'space', id: handbook.id, title: 'Handbook', pages: [expect.objectContaining({ title: 'Holidays' })] });
    expect(first.score).toBeGreaterThanOrEqual(second.score);

    const paged = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'deployment', limit: 1 } });
    expect(paged.body.items.map((i: { id: string }) => i.id)).toEqual([docs.space.id]);
    const rest = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'deployment', limit: 1, page: paged.body.next.page } });
    expect(rest.body.items.map((i: { id: string }) => i.id)).toEqual([handbook.id]);

    // Guests read no space; deleted spaces are not searched.
    const guest = await org.member(null);
    expect((await api.request('GET', `/orgs/${org.id}/search`, { token: guest.token, query: { query: 'deployment' } })).body).toEqual({ items: [], count: 0 });
    expect((await api.request('DELETE', `/spaces/${handbook.id}`, { token: org.admin.token })).status).toBe(205);
    const after = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'deployment' } });
    expect(after.body.items.map((i: { id: string }) => i.id)).toEqual([docs.space.id]);

    expect((await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token })).status).toBe(400);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/search`, { token: other.admin.token, query: { query: 'x' } })).status).toBe(404);
  });
});
