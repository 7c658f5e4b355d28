import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi, newOrg, newUser, type TestOrg } from './support/api.ts';
import { createSpace, createTranslation } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { translationEntity } from '../shared/db/entities/translation.ts';
import { loadRevision, saveRevision } from '../shared/content/revisions.ts';
import { getJsonBlob, putJsonBlob } from '../shared/content/blobs.ts';
import { emptyManifest, type StoredDocument } from '../shared/content/types.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { handler as translationsWorker } from '../functions/workers/translations/handler.ts';
import { runTranslationJob } from '../shared/commands/translations/run.ts';
import { PseudoTranslator, setDefaultTranslator, type Translator } from '../shared/translate/translator.ts';
import { storedLike } from './support/stored.ts';

const api = useTestApi();

const base = (org: TestOrg) => `/orgs/${org.id}/translations`;
const stored = async (org: TestOrg, id: string) => {
  const record = await getRecord(translationEntity.key({ orgId: org.id, translationId: id }), true);
  return record ? translationEntity.fromRecord(record) : undefined;
};
const count = async (org: TestOrg) => (await storedLike(translationEntity.key({ orgId: org.id, translationId: '' }))).length;

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const code = (text: string) => ({ object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });
const instructions = { object: 'document', data: {}, nodes: [paragraph('Keep product names in English')] };

/** Gives the space two pages (one nested) with text, and returns the revision id. */
async function writeContent(spaceId: string) {
  const now = new Date().toISOString();
  const manifest = emptyManifest();
  const doc = (nodes: unknown[]): StoredDocument => ({ object: 'document', data: {}, nodes });
  manifest.pages.push({
    id: 'intro', type: 'document', title: 'Introduction', slug: 'intro', createdAt: now, updatedAt: now,
    document: await putJsonBlob(doc([paragraph('Hello world'), code('npm install')])),
    pages: [{
      id: 'setup', type: 'document', title: 'Setup guide', slug: 'setup', createdAt: now, updatedAt: now,
      document: await putJsonBlob(doc([paragraph('Install the tool first'), paragraph(' ')])), pages: [],
    }],
  });
  const revision = await saveRevision({ spaceId, manifest, parents: [], type: 'edits', createdBy: 'test' });
  await db().send(new UpdateCommand({
    TableName: config.tableName, Key: spaceEntity.key({ spaceId }),
    UpdateExpression: 'SET revision = :r', ExpressionAttributeValues: { ':r': revision.id },
  }));
  return revision.id;
}


/** Polls the translations queue until the translation's run completed. */
async function processRuns(org: TestOrg, id: string) {
  for (let i = 0; i < 20; i++) {
    const t = await stored(org, id);
    if (t && !t.pendingRun) return t;
    await pollOnce('translations', 1);
  }
  throw new Error('the translation run did not complete');
}

describe('POST /orgs/{organizationId}/translations', () => {
  it('creates a pending translation and stores it', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const res = await api.request('POST', base(org), { token: org.admin.token, body: { source: { space: space.id, language: 'en' }, language: 'fr', instructions } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'translation', id: expect.any(String), status: 'pending', source: { space: space.id, language: 'en' }, language: 'fr',
      instructions, createdAt: expect.any(String), updatedAt: expect.any(String),
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: `${api.url}/v1/orgs/${org.id}/translations/${res.body.id}` },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(await stored(org, res.body.id)).toMatchObject({ status: 'pending', orgId: org.id, language: 'fr', createdBy: org.admin.user.id });
    const noInstructions = await api.request('POST', base(org), { token: org.admin.token, body: { source: { space: space.id, language: 'en' }, language: 'pt-br' } });
    expect(noInstructions.status).toBe(201);
    expect(noInstructions.body.instructions).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it('rejects bad bodies naming the field and writes nothing', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const other = await newOrg();
    const foreign = await createSpace(api, other, { title: 'Handbook' });
    const ok = { source: { space: space.id, language: 'en' }, language: 'fr' };
    for (const [body, field] of [
      [{}, 'source'], [{ ...ok, language: 'klingon' }, 'language'], [{ source: ok.source }, 'language'],
      [{ ...ok, source: { space: space.id } }, 'source.language'], [{ ...ok, source: 'x' }, 'source'],
      [{ ...ok, instructions: { object: 'page', nodes: [] } }, 'instructions.object'], [{ ...ok, instructions: { object: 'document' } }, 'instructions.nodes'],
      [{ ...ok, extra: 1 }, 'extra'], [{ ...ok, source: { space: 'nope', language: 'en' } }, 'source.space'],
      [{ ...ok, source: { space: foreign.id, language: 'en' } }, 'source.space'],
    ] as const) {
      const res = await api.request('POST', base(org), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    expect(await count(org)).toBe(0);
  });

  it('needs the create role: 403 below, 404 across organizations, 401 without token', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const body = { source: { space: space.id, language: 'en' }, language: 'fr' };
    const editor = await org.member('edit');
    expect((await api.request('POST', base(org), { token: editor.token, body })).status).toBe(403);
    const creator = await org.member('create');
    expect((await api.request('POST', base(org), { token: creator.token, body })).status).toBe(201);
    const other = await newOrg();
    expect((await api.request('POST', base(org), { token: other.admin.token, body })).status).toBe(404);
    expect((await api.request('POST', base(org), { body })).status).toBe(401);
    expect(await count(org)).toBe(1);
  });
});

describe('GET, PUT, DELETE a translation and list', () => {
  it('reads, lists with pagination, updates instructions and deletes', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const created = [];
    for (const language of ['fr', 'de', 'es']) created.push(await createTranslation(api, org, space, { language: language, instructions }));
    const reader = await org.member('read');
    const one = await api.request('GET', `${base(org)}/${created[0].id}`, { token: reader.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...created[0], permissions: { view: true, edit: false } });

    const first = await api.request('GET', base(org), { token: reader.token, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    const second = await api.request('GET', base(org), { token: reader.token, query: { limit: 2, page: first.body.next.page } });
    expect(second.body.next).toBeUndefined();
    expect([...first.body.items, ...second.body.items].map((t: { id: string }) => t.id).sort()).toEqual(created.map((t) => t.id).sort());
    expect((await api.request('GET', base(org), { token: reader.token, query: { limit: 0 } })).body.error.message).toMatch(/^limit: /);

    const newInstructions = { object: 'document', data: { schemaVersion: 1 }, nodes: [paragraph('Formal tone')] };
    const put = await api.request('PUT', `${base(org)}/${created[0].id}`, { token: org.admin.token, body: { instructions: newInstructions } });
    expect(put.status).toBe(200);
    expect(put.body.instructions).toEqual(newInstructions);
    expect((await stored(org, created[0].id))!.instructions).toEqual(newInstructions);
    const badPut = await api.request('PUT', `${base(org)}/${created[0].id}`, { token: org.admin.token, body: { language: 'de' } });
    expect(badPut.status).toBe(400);
    expect(badPut.body.error.message).toMatch(/^(instructions|language): /);
    expect((await api.request('PUT', `${base(org)}/nope`, { token: org.admin.token, body: { instructions } })).status).toBe(404);
    expect((await api.request('PUT', `${base(org)}/${created[0].id}`, { token: reader.token, body: { instructions } })).status).toBe(403);

    expect((await api.request('DELETE', `${base(org)}/${created[1].id}`, { token: reader.token })).status).toBe(403);
    expect((await api.request('DELETE', `${base(org)}/${created[1].id}`, { token: org.admin.token })).status).toBe(205);
    expect(await stored(org, created[1].id)).toBeUndefined();
    expect((await api.request('DELETE', `${base(org)}/${created[1].id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('GET', `${base(org)}/${created[1].id}`, { token: org.admin.token })).status).toBe(404);
    expect(await count(org)).toBe(2);
  });

  it('404 for unknown translations and across organizations, 403 for guests, 401 without token', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const t = await createTranslation(api, org, space, { instructions });
    const missing = await api.request('GET', `${base(org)}/nope`, { token: org.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No translation found with id nope');
    expect((await api.request('POST', `${base(org)}/nope/run`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    // The id exists in another org: still not found there.
    expect((await api.request('GET', `/orgs/${other.id}/translations/${t.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/orgs/${other.id}/translations/${t.id}/run`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `/orgs/${other.id}/translations/${t.id}`, { token: other.admin.token })).status).toBe(204);
    expect((await api.request('GET', `${base(org)}/${t.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', base(org), { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `${base(org)}/${t.id}`, { token: other.admin.token })).status).toBe(404);
    const guest = await org.member(null);
    expect((await api.request('GET', base(org), { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/${t.id}`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/${t.id}`)).status).toBe(401);
    expect((await api.request('POST', `${base(org)}/${t.id}/run`)).status).toBe(401);
    const stranger = await newUser('Stranger');
    expect((await api.request('GET', `${base(org)}/${t.id}`, { token: stranger.token })).status).toBe(404);
    expect(await stored(org, t.id)).toBeDefined();
  });
});

describe('POST .../run and the translations worker', () => {
  it('translates the source space into a result space, updates stats, and re-runs into a new revision', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    const sourceRevision = await writeContent(space.id);
    const t = await createTranslation(api, org, space, { language: 'fr', instructions });
    const editor = await org.member('edit');
    expect((await api.request('POST', `${base(org)}/${t.id}/run`, { token: editor.token })).status).toBe(403);
    const run = await api.request('POST', `${base(org)}/${t.id}/run`, { token: org.admin.token });
    expect(run.status).toBe(204);
    expect(run.body).toBeUndefined();
    expect((await stored(org, t.id))!.pendingRun).toEqual(expect.any(String));

    const done = await processRuns(org, t.id);
    expect(done.status).toBe('completed');
    const res = await api.request('GET', `${base(org)}/${t.id}`, { token: org.admin.token });
    expect(res.body.status).toBe('completed');
    expect(res.body.result).toEqual({ space: expect.any(String), revision: expect.any(String), language: 'fr' });
    // Words: titles (1 + 2) and text leaves outside code (2 + 4); pages: 2.
    expect(res.body.stats).toEqual({ runs: 1, totalWords: 9, totalPages: 2, totalDuration: expect.any(Number), latestRunDuration: expect.any(Number), latestPages: 2, latestWords: 9 });

    const resultSpace = await api.request('GET', `/spaces/${res.body.result.space}`, { token: org.admin.token });
    expect(resultSpace.status).toBe(200);
    expect(resultSpace.body).toMatchObject({ title: 'Handbook (fr)', language: 'fr', revision: res.body.result.revision, organization: org.id });
    const pages = await api.request('GET', `/spaces/${res.body.result.space}/content/pages`, { token: org.admin.token });
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['[fr] Introduction']);
    expect(pages.body.pages[0].pages[0].title).toBe('[fr] Setup guide');
    const result = (await loadRevision(res.body.result.space, res.body.result.revision))!;
    const intro = await getJsonBlob<StoredDocument>(result.manifest.pages[0]!.document!);
    expect(JSON.stringify(intro)).toContain('"text":"[fr] Hello world"');
    expect(JSON.stringify(intro)).toContain('"text":"npm install"'); // code is not translated
    const setup = await getJsonBlob<StoredDocument>(result.manifest.pages[0]!.pages[0]!.document!);
    expect(JSON.stringify(setup)).toContain('"text":"[fr] Install the tool first"');
    expect(JSON.stringify(setup)).toContain('"text":" "'); // blank text untouched
    // The source is unchanged.
    expect((await getRecord(spaceEntity.key({ spaceId: space.id })))!.revision).toBe(sourceRevision);

    // A second run writes a new revision of the same result space; nothing changed, so nothing is sent.
    expect((await api.request('POST', `${base(org)}/${t.id}/run`, { token: org.admin.token })).status).toBe(204);
    const again = await processRuns(org, t.id);
    expect(again.result!.space).toBe(res.body.result.space);
    expect(again.result!.revision).not.toBe(res.body.result.revision);
    expect(again.stats).toMatchObject({ runs: 2, totalWords: 9, totalPages: 2, latestPages: 0, latestWords: 0 });
    const second = (await loadRevision(again.result!.space, again.result!.revision))!;
    expect(second.revision.parents).toEqual([res.body.result.revision]);
    expect(second.manifest.pages[0]!.document).toBe(result.manifest.pages[0]!.document); // copied, not translated again
    expect((await getRecord(spaceEntity.key({ spaceId: again.result!.space })))!.revision).toBe(again.result!.revision);
  });

  it('is idempotent under redelivery and fails jobs of unknown translations', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook' });
    await writeContent(space.id);
    const t = await createTranslation(api, org, space, { language: 'de', instructions });
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: translationEntity.key({ orgId: org.id, translationId: t.id }),
      UpdateExpression: 'SET pendingRun = :t', ExpressionAttributeValues: { ':t': 'token-1' },
    }));
    const record = (body: unknown, id: string) => ({
      messageId: id, receiptHandle: id, body: JSON.stringify(body), attributes: {} as never, messageAttributes: {},
      md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn', awsRegion: 'us-east-1',
    });
    const job = { kind: 'translation-run', organizationId: org.id, translationId: t.id };
    const out = await translationsWorker({ Records: [record(job, 'a'), record(job, 'b'), record({ ...job, translationId: 'missing' }, 'c')] });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'c' }]);
    const after = (await stored(org, t.id))!;
    expect(after.stats.runs).toBe(1); // the redelivered job was a no-op
    const spaces = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
    expect(spaces.body.items.filter((s: { title: string }) => s.title === 'Handbook (de)')).toHaveLength(1);
  });

  it('uses a pluggable translator and ends a run whose source space is gone without retry', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Guide' });
    await writeContent(space.id);
    const t = await createTranslation(api, org, space, { language: 'ja', instructions });
    const upper: Translator = { translate: async (texts) => texts.map((s) => s.toUpperCase()) };
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: translationEntity.key({ orgId: org.id, translationId: t.id }),
      UpdateExpression: 'SET pendingRun = :t', ExpressionAttributeValues: { ':t': 'token-2' },
    }));
    const previous = setDefaultTranslator(upper);
    try {
      await runTranslationJob(org.id, t.id);
    } finally {
      setDefaultTranslator(previous);
    }
    expect(previous).toBeInstanceOf(PseudoTranslator);
    const done = (await stored(org, t.id))!;
    const pages = await api.request('GET', `/spaces/${done.result!.space}/content/pages`, { token: org.admin.token });
    expect(pages.body.pages[0].title).toBe('INTRODUCTION');

    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token })).status).toBeLessThan(300);
    await db().send(new UpdateCommand({
      TableName: config.tableName, Key: translationEntity.key({ orgId: org.id, translationId: t.id }),
      UpdateExpression: 'SET pendingRun = :t', ExpressionAttributeValues: { ':t': 'token-3' },
    }));
    await runTranslationJob(org.id, t.id);
    const failed = (await stored(org, t.id))!;
    expect(failed).toMatchObject({ status: 'pending', lastError: expect.stringContaining(space.id) });
    expect(failed.pendingRun).toBeUndefined();
    expect(failed.stats.runs).toBe(1);
  });
});
