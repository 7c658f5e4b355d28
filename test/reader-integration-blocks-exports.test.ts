import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { createRepo, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';
import { publishedSite } from './support/reader-site.ts';
import { readPdf } from './support/pdf-text.ts';
import { block, blockIntegrationNames, publishBlockIntegrations, renderedPage as rendered } from './support/integration-blocks.ts';

/**
 * Integration blocks beyond the page's own blocks (shared/reader/integration-blocks.ts,
 * shared/reader/integration-text.ts): a block inside a reusable content the page includes is
 * drawn by its integration like the page's own, and the exports that print a page (`<page>.md`,
 * llms-full.txt, `<page>.pdf`, the space's PDF) print the text of the block's cached render
 * instead of its props; a block without a render keeps its props.
 */
const api = useTestApi();
const server = useGitServer();

let org: TestOrg;
let spaceId: string;
let site: { id: string; url: string; base: string };
const { installed, idle } = blockIntegrationNames();

beforeAll(async () => {
  org = await newOrg();
  await publishBlockIntegrations(api, org, { installed, idle });
  // Reusable contents come from Git (.gitbook/includes), as on GitBook.
  const repo = `blocks-${Date.now()}`;
  await createRepo(server, repo, {
    'README.md': '# Home\n\nWelcome.\n',
    'included.md': '# Included\n\nBefore the include.\n\n{% include ".gitbook/includes/widget.md" %}\n',
    '.gitbook/includes/widget.md': `---\ntitle: Widget\n---\n\n${block(installed, 'label="Shared"')}\n`,
    // In an expandable's body (a fragment): shown by the page, so looked up and printed too.
    'folded.md': '# Folded\n\n<details>\n\n<summary>More</summary>\n\n{% include ".gitbook/includes/folded.md" %}\n\n</details>\n',
    '.gitbook/includes/folded.md': `---\ntitle: Folded\n---\n\n${block(installed, 'label="Folded"')}\n`,
    'exports.md': `# Exports\n\n${block(installed, 'label="Exported"')}\n`,
    'hostile.md': `# Hostile\n\n${block(installed, 'mode="hostile"')}\n`,
    // Viewed only after a first space PDF (the PDF made before its render, then after).
    'later.md': `# Later\n\n${block(installed, 'label="Later"')}\n`,
    'idle.md': `# Idle\n\n${block(idle, 'label="Idle"')}\n`,
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Included](included.md)\n* [Folded](folded.md)\n* [Exports](exports.md)\n* [Hostile](hostile.md)\n* [Idle](idle.md)\n* [Later](later.md)\n',
  });
  spaceId = (await createSpace(api, org)).id;
  const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${repo}.git`, ref: 'refs/heads/main' } });
  expect(res.status).toBe(204);
  await settleGit(api, org.admin.token, spaceId);
  site = await publishedSite(api, org, [spaceId]);
  const current = await api.request('GET', `${site.base}/customization`, { token: org.admin.token });
  const settings = current.body;
  delete settings.updatedAt;
  settings.pageActions = { items: ['markdown', 'pdf'] };
  expect((await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
}, 120_000);

/** The page at `path`'s HTML once its blocks are rendered (support/integration-blocks.ts). */
const renderedPage = async (path: string) => (await rendered(`${site.url}/${path}`)).html;


const pdfText = async (bytes: Uint8Array) => (await readPdf(bytes)).text;

describe('integration blocks in reusable content and exports', () => {
  it('a block inside an included reusable content is drawn by its integration, in the page\'s space', { timeout: 60_000 }, async () => {
    const html = await renderedPage('included');
    expect(html).toContain('Before the include.');
    expect(html).toContain(`<p class="contentkit-card-title"><strong>Shared for ${installed}</strong></p>`);
    // The render's context is the space that owns the reusable content: the page's.
    expect(html).toContain(`text in space ${spaceId}</p>`);
    expect(html).not.toContain('integration-fallback');
    // In an included content inside an expandable too; its .md prints the text there.
    expect(await renderedPage('folded')).toContain(`<p class="contentkit-card-title"><strong>Folded for ${installed}</strong></p>`);
    const md = await (await fetch(`${site.url}/folded.md`)).text();
    expect(md).toContain(`**Folded for ${installed}**`);
    expect(md).not.toContain('{% include');
  });

  it('<page>.md and llms-full.txt print the text the integration drew, not its props', { timeout: 60_000 }, async () => {
    expect(await renderedPage('exports')).not.toContain('integration-fallback');
    await renderedPage('included');
    const res = await fetch(`${site.url}/exports.md`);
    expect(res.status).toBe(200);
    const md = await res.text();
    expect(md).toContain(`**Exported for ${installed}**`);
    expect(md).toContain(`Plain and **bold** text in space ${spaceId}`);
    expect(md).toContain('Some **markdown** with a [link](https://example.com/docs).');
    expect(md).toContain('```javascript\nconsole.log("hi")\n```');
    expect(md).toContain('[Open docs](https://example.com/open)');
    expect(md).not.toContain(`{% @${installed}/card`);
    // The .md ETag follows what the blocks show.
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${site.url}/exports.md`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const full = await (await fetch(`${site.url}/llms-full.txt`)).text();
    expect(full).toContain(`**Exported for ${installed}**`);
    // A reusable content's block too, where the page includes it.
    expect(full).toContain(`**Shared for ${installed}**`);
    // A hostile render's text stays text: no script, handler or javascript: URL reaches the export.
    expect(await renderedPage('hostile')).not.toContain('integration-fallback');
    const hostile = await (await fetch(`${site.url}/hostile.md`)).text();
    // Text is escaped markdown (`\<script>` is text to a renderer); the integration's markdown is sanitized as the page's.
    expect(hostile).toContain('pwned = 1');
    expect(hostile).toContain('bad link');
    expect(hostile).not.toMatch(/(?<!\\)<script|(?<!\\)<img[^>]*onerror|javascript:/i);
    // Without a render (the integration is not installed on the space): the block as before.
    const idleMd = await (await fetch(`${site.url}/idle.md`)).text();
    expect(idleMd).toContain(`{% @${idle}/card label="Idle" %}`);
  });

  it('<page>.pdf and the space\'s PDF print the text the integration drew instead of its props', { timeout: 90_000 }, async () => {
    const spacePdf = async () => {
      const exported = await api.request('GET', `/spaces/${spaceId}/pdf`, { token: org.admin.token });
      expect(exported.status).toBe(200);
      const download = await fetch(exported.body.url);
      expect(download.status).toBe(200);
      return pdfText(new Uint8Array(await download.arrayBuffer()));
    };
    // Made before the 'later' block was ever rendered: its props, as before.
    const before = await spacePdf();
    expect(before).toContain('label: Later');
    expect(before).not.toContain(`Later for ${installed}`);
    // llms-full.txt likewise: the same revision, but a block's render is new, so its ETag is too.
    const fullBefore = await fetch(`${site.url}/llms-full.txt`);
    expect(await fullBefore.text()).not.toContain(`Later for ${installed}`);
    expect(await renderedPage('later')).not.toContain('integration-fallback');
    const fullAfter = await fetch(`${site.url}/llms-full.txt`, { headers: { 'if-none-match': fullBefore.headers.get('etag')! } });
    expect(fullAfter.status).toBe(200);
    expect(await fullAfter.text()).toContain(`Later for ${installed}`);
    expect((await fetch(`${site.url}/llms-full.txt`, { headers: { 'if-none-match': fullAfter.headers.get('etag')! } })).status).toBe(304);
    expect(await renderedPage('exports')).not.toContain('integration-fallback');
    const res = await fetch(`${site.url}/exports.pdf`);
    expect(res.status).toBe(200);
    const page = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const text of [`Exported for ${installed}`, `text in space ${spaceId}`, 'Some markdown with a link.', 'console.log("hi")', 'Open docs']) expect(page).toContain(text);
    expect(page).not.toContain('label: Exported');

    // The same revision's PDF again: made anew, since a block now prints its render.
    const all = await spacePdf();
    expect(all).toContain(`Later for ${installed}`);
    expect(all).not.toContain('label: Later');
    expect(all).toContain(`Exported for ${installed}`);
    expect(all).toContain('console.log("hi")');
    expect(all).not.toContain('label: Exported');
    // Without a render: the block's integration and props, as before.
    expect(all).toContain(`[${idle}: card]`);
    expect(all).toContain('label: Idle');
  });

  it('<page>.pdf and the space\'s PDF print included reusable content where the page includes it', { timeout: 90_000 }, async () => {
    expect(await renderedPage('included')).not.toContain('integration-fallback');
    const res = await fetch(`${site.url}/included.pdf`);
    expect(res.status).toBe(200);
    const page = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(page).toContain('Before the include.');
    expect(page).toContain(`Shared for ${installed}`);
    expect(page).not.toContain('Reusable content');
    const exported = await api.request('GET', `/spaces/${spaceId}/pdf`, { token: org.admin.token });
    expect(exported.status).toBe(200);
    const all = await pdfText(new Uint8Array(await (await fetch(exported.body.url)).arrayBuffer()));
    expect(all).toContain(`Shared for ${installed}`);
    expect(all).not.toContain('Reusable content');
  });
});
