import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { GitBookAPI } from '@gitbook/api';
// Type-only, by path: see test/organizations.test.ts.
import type { Api } from '../node_modules/@gitbook/api/dist/client.d.ts';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { putBytesBlob } from '../shared/content/blobs.ts';
import { storedLike } from './support/stored.ts';
import { readPdf } from './support/pdf-text.ts';
import { pdfExportEntity } from '../shared/db/entities/pdf-export.ts';

const api = useTestApi();

const GUIDE = `# Guide

An introduction with **bold words**, *slanted words* and \`inlineCode\`.

## Installation steps

1. Download the archive
2. Unpack it somewhere

- first bullet
- second bullet

\`\`\`bash
npm install pdf-example-package
\`\`\`

{% hint style="warning" %}
Careful: hints render as boxed paragraphs.
{% endhint %}

| Option | Meaning |
| --- | --- |
| verbose | Prints more |

![Architecture diagram](https://example.com/diagram.png)
`;

const SETUP = '# Setup\n\nSetup details live in a subpage.\n';
const REFERENCE = '# Reference\n\nThe reference page lists every option.\n';

/** A space with a change request holding Guide (with a Setup subpage) and Reference. */
async function changeRequestWithPages(org: TestOrg) {
  const space = await createSpace(api, org, { title: 'Handbook', empty: true });
  const cr = await createChangeRequest(api, org, space, { subject: 'Write the docs' });
  const edit = (changes: unknown[]) => api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes } });
  expect((await edit([
    { operation: 'insert_page', document: { markdown: GUIDE } },
    { operation: 'insert_page', document: { markdown: REFERENCE } },
  ])).status).toBe(200);
  const pages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
  const [guide, reference] = pages;
  expect((await edit([{ operation: 'insert_page', into: guide.id, document: { markdown: SETUP } }])).status).toBe(200);
  const setup = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages[0].pages[0];
  return { space, cr, guide, reference, setup, edit };
}

function pdfPath(spaceId: string, crId: string) {
  return `/spaces/${spaceId}/change-requests/${crId}/pdf`;
}

/** Downloads the presigned URL: the bytes and the blob hash the URL names. */
async function download(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const hash = /\/blobs\/([0-9a-f]{64})\?/.exec(url)?.[1];
  return { bytes, hash, contentType: res.headers.get('content-type') };
}


describe('GET change request pdf', () => {
  it('renders the content into a real PDF, stored content-addressed and presigned', async () => {
    const org = await newOrg();
    const { space, cr } = await changeRequestWithPages(org);
    const res = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    const { bytes, hash, contentType } = await download(res.body.url);
    expect(contentType).toBe('application/pdf');
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(hash);

    const { pages, text, title } = await readPdf(bytes);
    expect(title).toBe('Handbook - Change request #1: Write the docs');
    // One PDF page per content page here (each is short): Guide, Setup, Reference in reading order.
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('Handbook · Change request #1: Write the docs');
    for (const expected of [
      'Guide', 'An introduction with', 'bold words', 'slanted words', 'inlineCode', 'Installation steps',
      'Download the archive', 'Unpack it somewhere', 'first bullet', 'second bullet', 'npm install pdf-example-package',
      'Careful: hints render as boxed paragraphs.', 'Option', 'Meaning', 'verbose', 'Prints more', '[Image: Architecture diagram]',
    ]) expect(pages[0], expected).toContain(expected);
    expect(pages[1]).toContain('Setup details live in a subpage.');
    expect(pages[1]).toContain('Guide'); // breadcrumb of the subpage
    expect(pages[2]).toContain('The reference page lists every option.');
    expect(text.indexOf('Setup details')).toBeLessThan(text.indexOf('The reference page'));
  });

  it('renders one page with only=true, a page and its subpages with page alone', async () => {
    const org = await newOrg();
    const { space, cr, guide, reference } = await changeRequestWithPages(org);
    const all = await download((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token })).body.url);

    const only = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { only: true, page: reference.id } });
    expect(only.status).toBe(200);
    const one = await download(only.body.url);
    expect(one.hash).not.toBe(all.hash);
    expect(one.bytes.length).toBeLessThan(all.bytes.length);
    const oneText = await readPdf(one.bytes);
    expect(oneText.pages).toHaveLength(1);
    expect(oneText.title).toBe('Reference');
    expect(oneText.text).toContain('The reference page lists every option.');
    expect(oneText.text).not.toContain('Installation steps');

    const subtree = await download((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { page: guide.id } })).body.url);
    const subtreeText = await readPdf(subtree.bytes);
    expect(subtreeText.text).toContain('Installation steps');
    expect(subtreeText.text).toContain('Setup details live in a subpage.');
    expect(subtreeText.text).not.toContain('The reference page');
    const guideOnly = await download((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { only: 'true', page: guide.id } })).body.url);
    expect((await readPdf(guideOnly.bytes)).text).not.toContain('Setup details');
  });

  it('renders once per revision: a second request presigns the cached blob, an edit renders again', async () => {
    const org = await newOrg();
    const { space, cr, reference, edit } = await changeRequestWithPages(org);
    const first = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token });
    const firstHash = (await download(first.body.url)).hash!;
    const revision = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token })).body.revision;
    const records = await storedLike(pdfExportEntity.key({ spaceId: space.id, revisionId: revision, selection: 'all#' }));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ entityType: 'pdf-export', revisionId: revision, blob: firstHash });

    const second = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token });
    expect((await download(second.body.url)).hash).toBe(firstHash);
    // Prove the second answer comes from the record, not from rendering again: point the
    // record at other bytes and the next answer follows it.
    const marker = await putBytesBlob(new TextEncoder().encode('%PDF-1.7 marker'), 'application/pdf');
    await db().send(new PutCommand({ TableName: config.tableName, Item: { ...records[0], blob: marker } }));
    const third = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token });
    expect((await download(third.body.url)).hash).toBe(marker);
    await db().send(new PutCommand({ TableName: config.tableName, Item: records[0] }));

    // Same content through the number, by a reader: the same blob (read access suffices).
    const reader = await org.member('read');
    const byNumber = await api.request('GET', pdfPath(space.id, String(cr.number)), { token: reader.token });
    expect(byNumber.status).toBe(200);
    expect((await download(byNumber.body.url)).hash).toBe(firstHash);

    // A new revision is a new PDF.
    expect((await edit([{ operation: 'update_page', page: reference.id, document: { markdown: '# Reference\n\nRewritten text.\n' } }])).status).toBe(200);
    const edited = await download((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token })).body.url);
    expect(edited.hash).not.toBe(firstHash);
    expect((await readPdf(edited.bytes)).text).toContain('Rewritten text.');
  });

  it('wraps long text and breaks pages', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Long', empty: true });
    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: {} })).body;
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph number ${i} ${'with several words that wrap '.repeat(8)}end${i}.`).join('\n\n');
    const code = `\`\`\`\n${'x'.repeat(300)}\n\`\`\``;
    const res = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: org.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Long page', document: { markdown: `${paragraphs}\n\n${code}\n` } }] },
    });
    expect(res.status).toBe(200);
    const { bytes } = await download((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token })).body.url);
    const { pages, text } = await readPdf(bytes);
    expect(pages.length).toBeGreaterThan(3);
    expect(text).toContain('end0.');
    expect(text).toContain('end59.');
    // The 300-character code line is split across lines, none of its characters lost.
    expect(text.replace(/[^x]/g, '').length).toBeGreaterThanOrEqual(300);
  });

  it('prints math (block and inline) and integration blocks as written, in reading order', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Formulas', empty: true });
    const cr = await createChangeRequest(api, org, space, { subject: 'Math' });
    const markdown = 'Before the formula.\n\n$$\nE = mc^2\n$$\n\nInline $$a^2 + b^2$$ in a sentence.\n\n'
      + '{% @mermaid/diagram content="graph TD; Writer-->Reviewer" %}\n\nAfter the diagram.\n';
    const edit = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: org.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Physics', document: { markdown } }] },
    });
    expect(edit.status).toBe(200);
    const res = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token });
    expect(res.status).toBe(200);
    const { text } = await readPdf((await download(res.body.url)).bytes);
    const order = ['Before the formula.', 'E = mc^2', 'Inline', 'a^2 + b^2', 'in a sentence.', '[mermaid: diagram]', 'content: graph TD; Writer-->Reviewer', 'After the diagram.'];
    const at = order.map((expected) => text.indexOf(expected));
    expect(at.every((i) => i >= 0), `${text}`).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('answers 400 for only without page, 404 for unknown pages, change requests and other organizations, 401 without a token', async () => {
    const org = await newOrg();
    const { space, cr } = await changeRequestWithPages(org);
    const noPage = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { only: true } });
    expect(noPage.status).toBe(400);
    expect(noPage.body.error.message).toMatch(/^page: /);
    const badOnly = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { only: 'yes' } });
    expect(badOnly.status).toBe(400);
    expect(badOnly.body.error.message).toMatch(/^only: /);
    const unknownPage = await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { only: true, page: 'nope' } });
    expect(unknownPage.status).toBe(404);
    expect((await api.request('GET', pdfPath(space.id, cr.id), { token: org.admin.token, query: { page: 'nope' } })).status).toBe(404);
    expect((await api.request('GET', pdfPath(space.id, 'missing'), { token: org.admin.token })).status).toBe(404);
    expect((await api.request('GET', pdfPath(space.id, cr.id))).status).toBe(401);
    const other = await newOrg();
    expect((await api.request('GET', pdfPath(space.id, cr.id), { token: other.admin.token })).status).toBe(404);
  });
});

describe('GET space pdf (getSpacePDF)', () => {
  it('renders the primary content, not an open change request, through the official client; page, only, 404s', async () => {
    const org = await newOrg();
    const { space, cr, guide, reference } = await changeRequestWithPages(org);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
    // A change request still open: its words are not primary content.
    const draft = await createChangeRequest(api, org, space, { subject: 'Unmerged' });
    const edited = await api.request('POST', `/spaces/${space.id}/change-requests/${draft.id}/content`, {
      token: org.admin.token, body: { changes: [{ operation: 'update_page', page: reference.id, document: { markdown: '# Reference\n\nNot merged yet.\n' } }] },
    });
    expect(edited.status).toBe(200);

    const reader = await org.member('read', 'Reader');
    const client = new GitBookAPI({ authToken: reader.token, endpoint: api.url }) as unknown as Api<{ authToken?: string }>;
    const { data } = await client.spaces.getSpacePdf(space.id);
    expect(Object.keys(data)).toEqual(['url']);
    const whole = await download(data.url);
    expect(whole.contentType).toBe('application/pdf');
    const { pages, text, title } = await readPdf(whole.bytes);
    expect(title).toBe('Handbook');
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('Handbook');
    expect(text.indexOf('Installation steps')).toBeLessThan(text.indexOf('Setup details live in a subpage.'));
    expect(text.indexOf('Setup details live in a subpage.')).toBeLessThan(text.indexOf('The reference page lists every option.'));
    expect(text).not.toContain('Not merged yet.');

    const only = await api.request('GET', `/spaces/${space.id}/pdf`, { token: reader.token, query: { page: guide.id, only: true } });
    expect(only.status).toBe(200);
    const guideOnly = await readPdf((await download(only.body.url)).bytes);
    expect(guideOnly.title).toBe('Guide');
    expect(guideOnly.text).toContain('Installation steps');
    expect(guideOnly.text).not.toContain('Setup details');

    const noPage = await api.request('GET', `/spaces/${space.id}/pdf`, { token: reader.token, query: { only: true } });
    expect(noPage.status).toBe(400);
    expect(noPage.body.error.message).toMatch(/^page: /);
    expect((await api.request('GET', `/spaces/${space.id}/pdf`, { token: reader.token, query: { page: 'nope' } })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/pdf`)).status).toBe(401);
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}/pdf`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token })).status).toBe(205);
    expect((await api.request('GET', `/spaces/${space.id}/pdf`, { token: org.admin.token })).status).toBe(404);
  });
});
