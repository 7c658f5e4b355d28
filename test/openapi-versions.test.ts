import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { clientFailure, officialClient } from './support/official-client.ts';
import { newOrg, newUser, useTestApi, type TestOrg } from './support/api.ts';
import { processedSpec } from './support/openapi-specs.ts';
import { storedLike } from './support/stored.ts';
import { useLoopbackServer } from './support/loopback-server.ts';
import { run } from '../shared/db/writes.ts';
import { openAPISpecVersionEntity } from '../shared/db/entities/openapi-spec-version.ts';
import { openAPISpecEntity } from '../shared/db/entities/openapi-spec.ts';
import { openAPIVersionRetention } from '../shared/commands/openapi/versions.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';

/**
 * A spec's versions (the public interface's `openapi-versions`, beyond spec 4.6), read with the
 * official client as its users call it, and through the contract-checked test client where
 * the answer's shape matters (test/support/contract.ts checks it against both descriptions).
 */
const api = useTestApi();
const client = (token: string) => officialClient(api, token);

const failure = clientFailure;

// The first text is JSON as a person writes it (indented, a trailing newline), the second YAML.
const first = `${JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } } } } }, null, 2)}\n`;
const second = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "2"\npaths:\n  /pets:\n    post:\n      responses:\n        "201":\n          description: created # a comment the raw text keeps\n';

// /held answers only when the test releases it (a run still fetching while the spec moves on).
let held: { requested: () => void; release: Promise<void> } | undefined;
const specServer = useLoopbackServer((req, res) => {
  if (req.url === '/spec.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(second);
  else if (req.url === '/held' && held) {
    held.requested();
    void held.release.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(first));
  } else res.writeHead(404).end();
});

/** PUTs the text and waits until the jobs queue processed it; the spec's lastVersion. */
async function putAndProcess(org: TestOrg, slug: string, source: { text: string } | { url: string }): Promise<string> {
  await client(org.admin.token).orgs.createOrUpdateOpenApiSpecBySlug(org.id, slug, { source });
  const spec = await processedSpec(org.id, slug);
  expect(spec.lastProcessErrorCode).toBeUndefined();
  return spec.lastVersion!;
}

const versionsPath = (org: TestOrg, slug: string) => `/orgs/${org.id}/openapi/${slug}/versions`;

describe('OpenAPI spec versions', () => {
  afterEach(() => {
    openAPIVersionRetention.versions = 100;
  });

  it('keeps a version per processing, listed newest first with pagination, each with its own document and the latest raw text', async () => {
    const org = await newOrg();
    const older = await putAndProcess(org, 'pets', { text: first });
    const newer = await putAndProcess(org, 'pets', { text: second });
    expect(newer).not.toBe(older);
    const admin = client(org.admin.token);

    const list = await admin.orgs.listOpenApiSpecVersions(org.id, 'pets');
    expect(list.data.items.map((v) => v.id)).toEqual([newer, older]);
    const location = (id: string) => `${api.url}/v1${versionsPath(org, 'pets')}/${id}`;
    expect(list.data.items[1]).toEqual({
      object: 'openapi-spec-version', id: older, createdAt: expect.any(String),
      // An inline source is read in the API: where its content is.
      url: `${location(older)}/content`, urls: { location: location(older) },
    });
    expect(Date.parse(list.data.items[0]!.createdAt!)).toBeGreaterThanOrEqual(Date.parse(list.data.items[1]!.createdAt!));

    // One at a time: the first page names the next, which holds the older version and ends the list.
    const page1 = await api.request('GET', versionsPath(org, 'pets'), { token: org.admin.token, query: { limit: 1 } });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((v: { id: string }) => v.id)).toEqual([newer]);
    const page2 = await admin.orgs.listOpenApiSpecVersions(org.id, 'pets', { limit: 1, page: page1.body.next.page });
    expect(page2.data.items.map((v) => v.id)).toEqual([older]);
    expect(page2.data.next).toBeUndefined();

    // By id and latest; each version's content is the document of the text PUT then.
    expect((await admin.orgs.getOpenApiSpecVersionById(org.id, 'pets', older)).data).toEqual(list.data.items[1]);
    const latest = await api.request('GET', `${versionsPath(org, 'pets')}/latest`, { token: org.admin.token });
    expect(latest.body).toEqual(list.data.items[0]);
    const olderContent = await api.request('GET', `${versionsPath(org, 'pets')}/${older}/content`, { token: org.admin.token });
    expect(olderContent.status).toBe(200);
    expect(olderContent.body).toEqual({
      filesystem: [{ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: JSON.parse(first) }],
      urls: { source: `${location(older)}/content`, public: null },
    });
    const newerContent = await admin.orgs.getOpenApiSpecVersionContentById(org.id, 'pets', newer);
    expect((newerContent.data.filesystem as { specification: unknown }[])[0]!.specification).toEqual(parseYaml(second));
    const latestContent = await api.request('GET', `${versionsPath(org, 'pets')}/latest/content`, { token: org.admin.token });
    expect(latestContent.body).toEqual(newerContent.data);

    // Raw: the latest text exactly as PUT (its comment included), and its format.
    const raw = await api.request('GET', `${versionsPath(org, 'pets')}/latest/content/raw`, { token: org.admin.token });
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({ text: second, format: 'yaml' });
    await putAndProcess(org, 'pets', { text: first });
    expect((await admin.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data).toEqual({ text: first, format: 'json' });
    expect((await admin.orgs.listOpenApiSpecVersions(org.id, 'pets')).data.items).toHaveLength(3);
  });

  it('a public spec names where anyone reads it; a URL source is the version\'s url', async () => {
    const org = await newOrg();
    await putAndProcess(org, 'stored', { text: first });
    await client(org.admin.token).orgs.updateOpenApiSpecBySlug(org.id, 'stored', { visibility: 'public' as never });
    const stored = await api.request('GET', `${versionsPath(org, 'stored')}/latest/content`, { token: org.admin.token });
    expect(stored.body.urls.public).toBe(`${api.url}/s/~openapi/${org.id}/stored`);

    const url = `${specServer.url}/spec.yaml`;
    const fetched = await putAndProcess(org, 'fetched', { url });
    const version = await api.request('GET', `${versionsPath(org, 'fetched')}/${fetched}`, { token: org.admin.token });
    expect(version.body.url).toBe(url);
    const content = await api.request('GET', `${versionsPath(org, 'fetched')}/${fetched}/content`, { token: org.admin.token });
    expect(content.body.urls).toEqual({ source: url, public: null });
    await client(org.admin.token).orgs.updateOpenApiSpecBySlug(org.id, 'fetched', { visibility: 'public' as never });
    const published = await api.request('GET', `${versionsPath(org, 'fetched')}/latest/content`, { token: org.admin.token });
    expect(published.body.urls).toEqual({ source: url, public: url });
    // A fetched source's raw text is what the URL answered.
    expect((await api.request('GET', `${versionsPath(org, 'fetched')}/latest/content/raw`, { token: org.admin.token })).body)
      .toEqual({ text: second, format: 'yaml' });
  });

  it('is read as the spec is: members with a role, not others; a missing spec or version is a 404 naming it', async () => {
    const org = await newOrg();
    const version = await putAndProcess(org, 'api', { text: first });
    const reader = await org.member('read');
    expect((await client(reader.token).orgs.getOpenApiSpecVersionById(org.id, 'api', version)).data.id).toBe(version);
    expect((await client(reader.token).orgs.getLatestOpenApiSpecVersionContent(org.id, 'api')).status).toBe(200);
    const outsider = await newUser('Outsider');
    expect((await failure(client(outsider.token).orgs.listOpenApiSpecVersions(org.id, 'api'))).code).toBe(404);
    expect((await failure(client(outsider.token).orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'api'))).code).toBe(404);

    const unknown = await api.request('GET', `${versionsPath(org, 'api')}/nope`, { token: reader.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No version nope found for OpenAPI spec api');
    expect((await api.request('GET', `${versionsPath(org, 'api')}/nope/content`, { token: reader.token })).status).toBe(404);
    expect(await failure(client(reader.token).orgs.listOpenApiSpecVersions(org.id, 'other')))
      .toEqual({ code: 404, message: 'No OpenAPI spec found with slug other' });

    // A spec not processed yet has no latest version.
    await client(org.admin.token).orgs.createOpenApiSpec(org.id, { slug: 'pending', source: { text: first } });
    expect(await failure(client(reader.token).orgs.getLatestOpenApiSpecVersion(org.id, 'pending')))
      .toEqual({ code: 404, message: 'OpenAPI spec pending has no processed version yet' });
    expect((await client(reader.token).orgs.listOpenApiSpecVersions(org.id, 'pending')).data.items).toEqual([]);
  });

  it('deleting the spec deletes its versions; a spec created again under the slug starts with none', async () => {
    const org = await newOrg();
    await putAndProcess(org, 'gone', { text: first });
    await putAndProcess(org, 'gone', { text: second });
    const stored = () => storedLike(openAPISpecVersionEntity.key({ orgId: org.id, slug: 'gone', versionId: '' }));
    expect(await stored()).toHaveLength(2);
    expect((await client(org.admin.token).orgs.deleteOpenApiSpecBySlug(org.id, 'gone')).status).toBe(204);
    expect(await stored()).toEqual([]);
    expect((await failure(client(org.admin.token).orgs.listOpenApiSpecVersions(org.id, 'gone'))).code).toBe(404);
    // Listing specs never reads versions (they sit under another sort key prefix).
    await putAndProcess(org, 'gone', { text: first });
    const specs = await client(org.admin.token).orgs.listOpenApiSpecs(org.id);
    expect(specs.data.items.map((s) => s.slug)).toEqual(['gone']);
    expect((await client(org.admin.token).orgs.listOpenApiSpecVersions(org.id, 'gone')).data.items).toHaveLength(1);
  });

  it('versions a deletion left behind are not the new spec\'s, and its first processing removes them', async () => {
    const org = await newOrg();
    const left = await putAndProcess(org, 'again', { text: first });
    // A deletion that stopped after the spec item: its version stays under the slug.
    await run(openAPISpecEntity.delete({ orgId: org.id, slug: 'again' }));
    await client(org.admin.token).orgs.createOpenApiSpec(org.id, { slug: 'again', source: { text: second } });
    const admin = client(org.admin.token);
    expect((await admin.orgs.listOpenApiSpecVersions(org.id, 'again')).data.items).toEqual([]);
    expect((await failure(admin.orgs.getOpenApiSpecVersionById(org.id, 'again', left))).code).toBe(404);
    const current = (await processedSpec(org.id, 'again')).lastVersion;
    expect((await admin.orgs.listOpenApiSpecVersions(org.id, 'again')).data.items.map((v) => v.id)).toEqual([current]);
    const stored = await storedLike(openAPISpecVersionEntity.key({ orgId: org.id, slug: 'again', versionId: '' }));
    expect(stored.map((r) => r.id)).toEqual([current]);
  });

  it('a run superseded while it fetched records no version', async () => {
    const org = await newOrg();
    let release!: () => void;
    const requested = new Promise<void>((resolve) => {
      held = { requested: resolve, release: new Promise<void>((r) => { release = r; }) };
    });
    await client(org.admin.token).orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'raced', { source: { url: `${specServer.url}/held` } });
    const firstRun = pollOnce('jobs', 1);
    await requested;
    // The spec moves on (a new source, a new run) while the first run waits for its fetch.
    await client(org.admin.token).orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'raced', { source: { text: second } });
    release();
    await firstRun;
    held = undefined;
    const spec = await processedSpec(org.id, 'raced');
    const versions = (await client(org.admin.token).orgs.listOpenApiSpecVersions(org.id, 'raced')).data.items;
    expect(versions.map((v) => v.id)).toEqual([spec.lastVersion]);
    expect((await client(org.admin.token).orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'raced')).data.text).toBe(second);
    expect(await storedLike(openAPISpecVersionEntity.key({ orgId: org.id, slug: 'raced', versionId: '' }))).toHaveLength(1);
  });

  it('keeps the newest versions up to the retention', async () => {
    openAPIVersionRetention.versions = 2;
    const org = await newOrg();
    const ids = [];
    for (const text of [first, second, first]) ids.push(await putAndProcess(org, 'kept', { text }));
    const listed = await client(org.admin.token).orgs.listOpenApiSpecVersions(org.id, 'kept');
    expect(listed.data.items.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    expect(await failure(client(org.admin.token).orgs.getOpenApiSpecVersionById(org.id, 'kept', ids[0]!)))
      .toEqual({ code: 404, message: `No version ${ids[0]} found for OpenAPI spec kept` });
  });

  it('a spec processed before versions were recorded still answers its latest version, without a raw source', async () => {
    const org = await newOrg();
    const version = await putAndProcess(org, 'legacy', { text: first });
    // What such a spec looks like: a lastVersion with no version record.
    await run(openAPISpecVersionEntity.delete({ orgId: org.id, slug: 'legacy', versionId: version }));
    const admin = client(org.admin.token);
    expect((await admin.orgs.getLatestOpenApiSpecVersion(org.id, 'legacy')).data.id).toBe(version);
    const content = await api.request('GET', `${versionsPath(org, 'legacy')}/latest/content`, { token: org.admin.token });
    expect((content.body.filesystem as { specification: unknown }[])[0]!.specification).toEqual(JSON.parse(first));
    expect(await failure(admin.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'legacy')))
      .toEqual({ code: 404, message: `Version ${version} of OpenAPI spec legacy has no raw source` });
  });
});
