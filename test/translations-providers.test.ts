import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest } from 'node:http2';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { translationEntity } from '../shared/db/entities/translation.ts';
import { loadRevision, saveRevision } from '../shared/content/revisions.ts';
import { getJsonBlob, putJsonBlob } from '../shared/content/blobs.ts';
import { emptyManifest, type Manifest, type StoredDocument } from '../shared/content/types.ts';
import { runTranslationJob } from '../shared/commands/translations/run.ts';
import { setDefaultTranslator } from '../shared/translate/translator.ts';
import { translatorFromEnvironment } from '../shared/translate/providers.ts';
import { AmazonTranslateTranslator } from '../shared/translate/amazon-translate.ts';
import { BedrockTranslator } from '../shared/translate/bedrock.ts';
import { PseudoTranslator } from '../shared/translate/pseudo.ts';
import { segmentDocument, MAX_SEGMENT_BYTES } from '../shared/translate/segments.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { MAX_RUN_ATTEMPTS } from '../shared/commands/translations/run.ts';
import { startLoopbackServer } from './support/loopback-server.ts';

/**
 * Real providers against loopback servers that speak their protocols: Amazon Translate's
 * AWS JSON 1.1 (X-Amz-Target: AWSShineFrontendService_20170701.TranslateText) and Bedrock
 * Runtime's Converse (REST JSON), reached through the SDK's standard endpoint variables.
 */

const api = useTestApi();

type Handler = (req: IncomingMessage | Http2ServerRequest, body: string) => { status: number; headers?: Record<string, string>; body: unknown };

/** A loopback server; `http2` (cleartext, prior knowledge) for Bedrock Runtime, whose SDK client speaks HTTP/2. */
async function listen(handler: Handler, http2 = false) {
  const respond = (req: IncomingMessage | Http2ServerRequest, res: { writeHead(status: number, headers: Record<string, string>): unknown; end(body: string): unknown }) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      const out = handler(req, body);
      res.writeHead(out.status, { 'content-type': 'application/x-amz-json-1.1', ...out.headers });
      res.end(JSON.stringify(out.body));
    });
  };
  return http2 ? startLoopbackServer(createHttp2Server(respond)) : startLoopbackServer(respond);
}

/** A tiny English -> French "engine": whole-segment phrases first (they move marks), then word by word. */
const PHRASES: Record<string, string> = {
  'Park the <b>red</b> car near the door.': 'Garez la voiture <b>rouge</b> près de la porte.',
};
const WORDS: Record<string, string> = { getting: 'bien', started: 'démarrer', read: 'lisez', the: 'la', guide: 'guide', first: "d'abord", careful: 'attention' };
function frenchOf(markup: string): string {
  if (PHRASES[markup]) return PHRASES[markup];
  // Text between tags only: tags and attributes come back as they were sent.
  return markup.replace(/(^|>)([^<]+)/g, (_m, open: string, text: string) =>
    open + text.replace(/\p{L}+/gu, (w) => WORDS[w.toLowerCase()] ?? w.toUpperCase()));
}

const leaf = (text: string, marks: string[] = []) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type, data: {} })) });
const text = (...leaves: unknown[]) => ({ object: 'text', leaves });
const block = (type: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({ object: 'block', type, key: '', data, nodes });
const paragraph = (...nodes: unknown[]) => block('paragraph', nodes);
const doc = (...nodes: unknown[]): StoredDocument => ({ object: 'document', data: {}, nodes });

const RICH = doc(
  block('heading-1', [text(leaf('Getting started'))]),
  paragraph(text(leaf('Park the '), leaf('red', ['bold']), leaf(' car near the door.'))),
  paragraph(
    text(leaf('Run '), leaf('npm install tool', ['code']), leaf(' then open https://example.com/setup?x=1 and read ')),
    { object: 'inline', type: 'link', key: '', data: { ref: { kind: 'url', url: 'https://example.com/guide' } }, nodes: [text(leaf('the guide', ['italic']))] },
    text(leaf(' for {{ space.vars.version }} first.')),
  ),
  block('code', [block('code-line', [text(leaf('echo "do not translate me"'))])], { syntax: 'bash' }),
  block('hint', [paragraph(text(leaf('Be careful')))], { style: 'warning' }),
  { object: 'block', type: 'html', key: '', isVoid: true, data: { html: '<p>Raw HTML stays</p>' }, nodes: [] },
  paragraph(text(leaf('{% hint style="info" %}'))),
);

async function spaceWith(org: TestOrg, pages: { id: string; title: string; document: StoredDocument }[], previous?: string) {
  let spaceId = previous;
  if (!spaceId) {
    spaceId = (await createSpace(api, org, { title: 'Manual' })).id as string;
  }
  const now = new Date().toISOString();
  const manifest = emptyManifest();
  for (const page of pages) {
    manifest.pages.push({ id: page.id, type: 'document', title: page.title, slug: page.id, createdAt: now, updatedAt: now, document: await putJsonBlob(page.document), pages: [] });
  }
  const revision = await saveRevision({ spaceId, manifest, parents: [], type: 'edits', createdBy: 'test' });
  await db().send(new UpdateCommand({
    TableName: config.tableName, Key: spaceEntity.key({ spaceId }), UpdateExpression: 'SET revision = :r', ExpressionAttributeValues: { ':r': revision.id },
  }));
  return spaceId;
}

async function run(org: TestOrg, translationId: string) {
  await db().send(new UpdateCommand({
    TableName: config.tableName, Key: translationEntity.key({ orgId: org.id, translationId }),
    UpdateExpression: 'SET pendingRun = :t', ExpressionAttributeValues: { ':t': `run-${Math.random()}` },
  }));
  await runTranslationJob(org.id, translationId);
  const record = await getRecord(translationEntity.key({ orgId: org.id, translationId }), true);
  const translation = translationEntity.fromRecord(record!);
  const result = (await loadRevision(translation.result!.space, translation.result!.revision))!;
  return { translation, manifest: result.manifest };
}

const pageDocument = async (manifest: Manifest, id: string) => getJsonBlob<StoredDocument>(manifest.pages.find((p) => p.id === id)!.document!);

/** Block types, recursively: the structure a translation must keep. */
const shape = (nodes: unknown[]): unknown[] => (nodes as { object: string; type?: string; nodes?: unknown[] }[])
  .filter((n) => n.object === 'block').map((n) => [n.type, shape(n.nodes ?? [])]);
/** Every leaf as `text|marks`. */
const leaves = (node: unknown): string[] => {
  const n = node as { leaves?: { text: string; marks?: { type: string }[] }[]; nodes?: unknown[] };
  return [...(n.leaves ?? []).map((l) => `${l.text}|${(l.marks ?? []).map((m) => m.type).join(',')}`), ...(n.nodes ?? []).flatMap(leaves)];
};

describe('Amazon Translate provider (AWS JSON 1.1 over a loopback server)', () => {
  it('sends only prose segments, keeps every block and mark, retries throttling, and re-sends only the page that changed', async () => {
    const sent: string[] = [];
    let throttled = 0;
    const { url, close } = await listen((req, body) => {
      expect(req.headers['x-amz-target']).toBe('AWSShineFrontendService_20170701.TranslateText');
      const input = JSON.parse(body) as { Text: string; SourceLanguageCode: string; TargetLanguageCode: string };
      if (throttled === 0) {
        throttled++;
        return { status: 400, body: { __type: 'ThrottlingException', message: 'Rate exceeded' } };
      }
      sent.push(input.Text);
      expect([input.SourceLanguageCode, input.TargetLanguageCode]).toEqual(['en', 'fr']);
      return { status: 200, body: { TranslatedText: frenchOf(input.Text), SourceLanguageCode: 'en', TargetLanguageCode: 'fr' } };
    });
    const previousEnv = { provider: process.env.TRANSLATION_PROVIDER, endpoint: process.env.AWS_ENDPOINT_URL_TRANSLATE };
    process.env.TRANSLATION_PROVIDER = 'amazon-translate';
    process.env.AWS_ENDPOINT_URL_TRANSLATE = url;
    const previous = setDefaultTranslator(undefined); // back to the environment's choice
    try {
      const org = await newOrg();
      const pages = [
        { id: 'rich', title: 'Getting started', document: RICH },
        { id: 'other', title: 'Read the guide', document: doc(paragraph(text(leaf('Read the guide first')))) },
        { id: 'codeonly', title: 'Getting started', document: doc(block('code', [block('code-line', [text(leaf('ls -la'))])])) },
      ];
      const spaceId = await spaceWith(org, pages);
      const created = await api.request('POST', `/orgs/${org.id}/translations`, { token: org.admin.token, body: { source: { space: spaceId, language: 'en' }, language: 'fr' } });
      const first = await run(org, created.body.id);

      expect(throttled).toBe(1); // the throttled request was retried by the SDK with backoff
      expect(sent.sort()).toEqual([
        'Be careful',
        'Getting started', 'Getting started', 'Getting started',
        'Park the <b>red</b> car near the door.',
        'Read the guide', 'Read the guide first',
        'Run <x data-i="0"></x> then open <x data-i="1"></x> and read <a data-i="2"><i>the guide</i></a> for <x data-i="3"></x> first.',
      ].sort());
      for (const segment of sent) expect(segment).not.toMatch(/npm|https?:|echo|Raw HTML|\{\{|\{%/);

      const rich = await pageDocument(first.manifest, 'rich');
      expect(shape(rich.nodes)).toEqual(shape(RICH.nodes));
      expect(leaves({ nodes: rich.nodes })).toEqual([
        'bien démarrer|',
        'Garez la voiture |', 'rouge|bold', ' près de la porte.|',
        // URLs and expressions come back from the source, as written (in leaves of the same marks, merged).
        'RUN |', 'npm install tool|code', ' THEN OPEN https://example.com/setup?x=1 AND lisez |', 'la guide|italic',
        " FOR {{ space.vars.version }} d'abord.|",
        'echo "do not translate me"|',
        'BE attention|',
        '{% hint style="info" %}|',
      ]);
      const link = (rich.nodes[2] as { nodes: { type?: string; data?: unknown }[] }).nodes.find((n) => n.type === 'link');
      expect(link?.data).toEqual({ ref: { kind: 'url', url: 'https://example.com/guide' } });
      expect(rich.nodes[5]).toEqual(RICH.nodes[5]); // raw HTML block untouched
      expect(first.manifest.pages.map((p) => p.title)).toEqual(['bien démarrer', 'lisez la guide', 'bien démarrer']);
      // Titles (2 + 3 + 2), then prose: heading 2, "Park ... door." 7, "Run ... first." 9, hint 2, other page 4.
      // Code, URLs and expressions are not counted.
      const words = 7 + 2 + 7 + 9 + 2 + 4;
      expect(first.translation.stats).toMatchObject({ runs: 1, latestPages: 3, totalPages: 3, latestWords: words, totalWords: words });

      // Change one page: the next run sends that page only, and copies the others.
      sent.length = 0;
      await spaceWith(org, [pages[0]!, { id: 'other', title: 'Read the guide', document: doc(paragraph(text(leaf('Careful first')))) }, pages[2]!], spaceId);
      const second = await run(org, created.body.id);
      expect(sent.sort()).toEqual(['Careful first', 'Read the guide']);
      expect(second.translation.stats).toMatchObject({ runs: 2, latestPages: 1, totalPages: 3, latestWords: 5, totalWords: words + 5 });
      expect(second.manifest.pages[0]!.document).toBe(first.manifest.pages[0]!.document);
      expect(leaves(await pageDocument(second.manifest, 'other'))).toEqual(["attention d'abord|"]);

      // Nothing changed: nothing is sent.
      sent.length = 0;
      const third = await run(org, created.body.id);
      expect(sent).toEqual([]);
      expect(third.translation.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0 });
    } finally {
      setDefaultTranslator(previous);
      process.env.TRANSLATION_PROVIDER = previousEnv.provider;
      if (previousEnv.endpoint === undefined) delete process.env.AWS_ENDPOINT_URL_TRANSLATE;
      else process.env.AWS_ENDPOINT_URL_TRANSLATE = previousEnv.endpoint;
      if (previousEnv.provider === undefined) delete process.env.TRANSLATION_PROVIDER;
      await close();
    }
  });
});

describe('Bedrock provider (Converse over a loopback server)', () => {
  it('batches segments, follows the instructions, and splits a batch the model answered badly', async () => {
    const requests: { system: string; texts: string[] }[] = [];
    const { url, close } = await listen((req, body) => {
      expect(req.url).toBe(`/model/${encodeURIComponent('test-model')}/converse`);
      const input = JSON.parse(body) as { system: { text: string }[]; messages: { content: { text: string }[] }[] };
      const texts = JSON.parse(input.messages[0]!.content[0]!.text) as string[];
      requests.push({ system: input.system[0]!.text, texts });
      // The first answer has one item too few: the provider must split the batch and ask again.
      const answer = requests.length === 1 ? texts.slice(1) : texts.map(frenchOf);
      return {
        status: 200, headers: { 'content-type': 'application/json' },
        body: { output: { message: { role: 'assistant', content: [{ text: `Here you go:\n${JSON.stringify(answer)}` }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } },
      };
    }, true);
    const previousEndpoint = process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
    process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = url;
    try {
      const translator = new BedrockTranslator('test-model');
      const instructions = doc(paragraph(text(leaf('Keep product names in English'))));
      const out = await translator.translate(['Read the guide', 'Park the <b>red</b> car near the door.', ' '], { from: 'en', to: 'fr', instructions });
      expect(out).toEqual(['lisez la guide', 'Garez la voiture <b>rouge</b> près de la porte.', ' ']);
      expect(requests.map((r) => r.texts)).toEqual([
        ['Read the guide', 'Park the <b>red</b> car near the door.'], ['Read the guide'], ['Park the <b>red</b> car near the door.'],
      ]);
      expect(requests[0]!.system).toContain('Keep product names in English');
      expect(requests[0]!.system).toContain('"en" to language "fr"');
    } finally {
      if (previousEndpoint === undefined) delete process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
      else process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = previousEndpoint;
      await close();
    }
  });
});

describe('a provider that keeps failing or never answers', () => {
  /** Requests a run over HTTP and works the translations queue until the run is no longer pending; the translation as GET shows it. */
  async function runThroughQueue(org: TestOrg, id: string) {
    const requested = await api.request('POST', `/orgs/${org.id}/translations/${id}/run`, { token: org.admin.token });
    expect(requested.status).toBe(204);
    for (let i = 0; i < 40; i++) {
      const record = translationEntity.fromRecord((await getRecord(translationEntity.key({ orgId: org.id, translationId: id }), true))!);
      if (!record.pendingRun) break;
      await pollOnce('translations', 1);
    }
    const got = await api.request('GET', `/orgs/${org.id}/translations/${id}`, { token: org.admin.token });
    expect(got.status).toBe(200);
    const stored = translationEntity.fromRecord((await getRecord(translationEntity.key({ orgId: org.id, translationId: id }), true))!);
    return { presented: got.body, stored };
  }

  it('ends the run after its last attempt: status back to pending (not running forever), the reason kept; a later run completes', async () => {
    let calls = 0;
    let refuse = true;
    const { url, close } = await listen((_req, body) => {
      calls++;
      if (refuse) return { status: 400, body: { __type: 'UnsupportedLanguagePairException', message: 'Unsupported language pair: en to fr' } };
      const input = JSON.parse(body) as { Text: string };
      return { status: 200, body: { TranslatedText: frenchOf(input.Text), SourceLanguageCode: 'en', TargetLanguageCode: 'fr' } };
    });
    const previousEnv = { provider: process.env.TRANSLATION_PROVIDER, endpoint: process.env.AWS_ENDPOINT_URL_TRANSLATE };
    process.env.TRANSLATION_PROVIDER = 'amazon-translate';
    process.env.AWS_ENDPOINT_URL_TRANSLATE = url;
    const previous = setDefaultTranslator(undefined);
    try {
      const org = await newOrg();
      const spaceId = await spaceWith(org, [{ id: 'p', title: 'Read the guide', document: doc(paragraph(text(leaf('Read the guide first')))) }]);
      const created = await api.request('POST', `/orgs/${org.id}/translations`, { token: org.admin.token, body: { source: { space: spaceId, language: 'en' }, language: 'fr' } });
      const failed = await runThroughQueue(org, created.body.id);
      expect(calls).toBeGreaterThanOrEqual(MAX_RUN_ATTEMPTS); // each attempt reached the provider
      expect(failed.presented).toMatchObject({ status: 'pending', stats: { runs: 0 } });
      expect(failed.presented.result).toBeUndefined();
      expect(failed.stored.pendingRun).toBeUndefined();
      expect(failed.stored.lastError).toMatch(/^The run failed 3 times; last error: Unsupported language pair: en to fr/);
      const spaces = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
      expect(spaces.body.items.map((s: { id: string }) => s.id)).toEqual([spaceId]); // no result space

      refuse = false;
      const done = await runThroughQueue(org, created.body.id);
      expect(done.presented).toMatchObject({ status: 'completed', stats: { runs: 1, latestPages: 1 } });
      expect(done.stored.lastError).toBeUndefined();
      expect(done.stored.runAttempts).toBeUndefined();
    } finally {
      setDefaultTranslator(previous);
      for (const [name, value] of [['TRANSLATION_PROVIDER', previousEnv.provider], ['AWS_ENDPOINT_URL_TRANSLATE', previousEnv.endpoint]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await close();
    }
  });

  it('stops an attempt at TRANSLATION_RUN_TIMEOUT_MS when the provider never answers, and records it', async () => {
    const hung = await startLoopbackServer(() => { /* never answers */ });
    const saved = { provider: process.env.TRANSLATION_PROVIDER, endpoint: process.env.AWS_ENDPOINT_URL_TRANSLATE, timeout: process.env.TRANSLATION_RUN_TIMEOUT_MS };
    process.env.TRANSLATION_PROVIDER = 'amazon-translate';
    process.env.AWS_ENDPOINT_URL_TRANSLATE = hung.url;
    process.env.TRANSLATION_RUN_TIMEOUT_MS = '700';
    const previous = setDefaultTranslator(undefined);
    try {
      const org = await newOrg();
      const spaceId = await spaceWith(org, [{ id: 'p', title: 'Read the guide', document: doc(paragraph(text(leaf('Read the guide first')))) }]);
      const created = await api.request('POST', `/orgs/${org.id}/translations`, { token: org.admin.token, body: { source: { space: spaceId, language: 'en' }, language: 'fr' } });
      const started = Date.now();
      const failed = await runThroughQueue(org, created.body.id);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(failed.presented).toMatchObject({ status: 'pending', stats: { runs: 0 } });
      expect(failed.stored.lastError).toMatch(/last error: The translation provider did not finish within 700 ms/);
    } finally {
      setDefaultTranslator(previous);
      for (const [name, value] of [['TRANSLATION_PROVIDER', saved.provider], ['AWS_ENDPOINT_URL_TRANSLATE', saved.endpoint], ['TRANSLATION_RUN_TIMEOUT_MS', saved.timeout]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await hung.close(); // ends the request left hanging too
    }
  });
});

describe('provider choice and segment limits', () => {
  it('TRANSLATION_PROVIDER picks the provider; anything else is an error', () => {
    expect(translatorFromEnvironment('pseudo')).toBeInstanceOf(PseudoTranslator);
    expect(translatorFromEnvironment('amazon-translate')).toBeInstanceOf(AmazonTranslateTranslator);
    expect(translatorFromEnvironment('bedrock')).toBeInstanceOf(BedrockTranslator);
    expect(() => translatorFromEnvironment('deepl')).toThrow(/TRANSLATION_PROVIDER must be one of pseudo, amazon-translate, bedrock/);
  });

  it('cuts a paragraph longer than a request allows between sentences and puts every word back', () => {
    const sentence = 'This sentence is about documentation and translation quality. ';
    const long = sentence.repeat(400);
    const segmented = segmentDocument(doc(paragraph(text(leaf(long), leaf('bold end', ['bold'])))));
    expect(segmented.segments.length).toBeGreaterThan(2);
    for (const segment of segmented.segments) expect(Buffer.byteLength(segment.html)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    const rebuilt = segmented.rebuild(segmented.segments.map((s) => s.html));
    expect(leaves({ nodes: rebuilt.nodes }).map((l) => l.split('|')[0]).join('')).toBe(`${long}bold end`);
    expect(leaves({ nodes: rebuilt.nodes }).at(-1)).toBe('bold end|bold');
  });
});
