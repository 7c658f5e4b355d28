import { rm } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { cloneBranch, createRepo, useGitServer } from './support/git-server.ts';
import { filesOf, settleGit } from './support/git-sync.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';
import { openAPIFetchLimits } from '../shared/commands/openapi/process.ts';

/**
 * Legacy API blocks whose `src` is a spec file of the space (`{% swagger src="../.gitbook/assets/petstore.yaml" %}`),
 * as GitBook documentation imported from Git holds them: the published page shows the operation
 * from that file as it does for a stored spec; a file that is missing, not a spec, or without the
 * operation is said on the page; a Git export writes the blocks back as they were.
 */

const api = useTestApi();
const server = useGitServer();

const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
servers:
  - url: https://petstore.example/v1
paths:
  /pets:
    get:
      summary: List pets
      parameters:
        - name: limit
          in: query
          description: How many pets to return
          schema: {type: integer, format: int32}
      responses:
        '200':
          description: A page of pets
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, description: The pet's name}
`;

const USERS = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Users', version: '1' },
  host: 'users.example',
  paths: { '/users/{id}': { get: { summary: 'Get a user', parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }], responses: { 404: { description: 'No such user' } } } } },
});

const PETS_PAGE = `# Pets

Every pet of the store.

{% swagger src="../.gitbook/assets/petstore.yaml" path="/pets" method="get" %}
[petstore.yaml](../.gitbook/assets/petstore.yaml)
{% endswagger %}

{% openapi src="../.gitbook/assets/users.json" path="/users/{id}" method="get" %}
[users.json](../.gitbook/assets/users.json)
{% endopenapi %}
`;

const BROKEN_PAGE = `# Broken specs

{% swagger src="../.gitbook/assets/gone.yaml" path="/pets" method="get" %}
[gone.yaml](../.gitbook/assets/gone.yaml)
{% endswagger %}

{% swagger src="../.gitbook/assets/notes.yaml" path="/pets" method="get" %}
[notes.yaml](../.gitbook/assets/notes.yaml)
{% endswagger %}

{% swagger src="../.gitbook/assets/broken.yaml" path="/pets" method="get" %}
[broken.yaml](../.gitbook/assets/broken.yaml)
{% endswagger %}

{% openapi src="../.gitbook/assets/petstore.yaml" path="/pets" method="patch" %}
[petstore.yaml](../.gitbook/assets/petstore.yaml)
{% endopenapi %}
`;

const REPOSITORY = {
  'README.md': '# Pets API\n\nThe pet store.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Pets API](README.md)\n* [Pets](reference/pets.md)\n* [Broken specs](reference/broken.md)\n',
  'reference/pets.md': PETS_PAGE,
  'reference/broken.md': BROKEN_PAGE,
  '.gitbook/assets/petstore.yaml': PETSTORE,
  '.gitbook/assets/users.json': USERS,
  // Valid YAML, but not an OpenAPI document; and not YAML at all.
  '.gitbook/assets/notes.yaml': 'title: Notes\nitems: [a, b]\n',
  '.gitbook/assets/broken.yaml': 'openapi: 3.0.0\ninfo: [unclosed\n',
};

let org: TestOrg;
let spaceId: string;
let repoName: string;
let pages: Record<string, { id: string; path: string }>;
let siteUrl: string;

const squash = (html: string) => html.replace(/\s+/g, ' ');
const readerPage = async (title: string) => {
  const res = await fetch(`${siteUrl}/${pages[title]!.path}`);
  expect(res.status).toBe(200);
  return squash(await res.text());
};

async function sync(op: 'import' | 'export', body: Record<string, unknown>) {
  const res = await api.request('POST', `/spaces/${spaceId}/git/${op}`, { token: org.admin.token, body: { ref: 'refs/heads/main', ...(op === 'export' ? { commitMessage: 'Export' } : {}), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  expect((await settleGit(api, org.admin.token, spaceId)).operations.last.status).toBe('succeeded');
}

beforeAll(async () => {
  org = await newOrg();
  repoName = `spec-files-${Date.now()}`;
  await createRepo(server, repoName, REPOSITORY);
  spaceId = (await createSpace(api, org, { title: 'Pets' })).id;
  await sync('import', { url: `${server.url}/${repoName}.git` });
  type Page = { id: string; title: string; path: string; pages: Page[] };
  const listed = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages as Page[];
  const flat = (list: Page[]): Page[] => list.flatMap((p) => [p, ...flat(p.pages ?? [])]);
  pages = Object.fromEntries(flat(listed).map((p) => [p.title, p]));
  siteUrl = (await publishedSite(api, org, [spaceId], 'public')).url;
}, 120_000);

afterEach(() => {
  openAPIFetchLimits.maxBytes = 10 * 1024 * 1024;
});

describe('swagger blocks naming a spec file of the space', () => {
  it('a Git import keeps the relative src as a reference to the imported file; the published page shows its operation (method, path, parameter, response), and that of a JSON Swagger 2.0 file', async () => {
    const files = (await api.request('GET', `/spaces/${spaceId}/content/files`, { token: org.admin.token })).body.items as { id: string; name: string }[];
    const petstore = files.find((f) => f.name === 'petstore.yaml');
    expect(petstore).toBeDefined();
    const page = await api.request('GET', `/spaces/${spaceId}/content/page/${pages.Pets!.id}`, { token: org.admin.token });
    const swagger = (page.body.document.nodes as { type: string; data: Record<string, unknown> }[]).find((n) => n.type === 'swagger');
    expect(swagger?.data).toMatchObject({ ref: { kind: 'file', file: petstore!.id }, path: '/pets', method: 'get' });

    const html = await readerPage('Pets');
    const get = html.slice(html.indexOf('<span class="openapi-method">GET</span> <code class="openapi-path">/pets</code>'));
    expect(get).toContain('<code class="openapi-path">/pets</code> <span class="openapi-summary">List pets</span> <span class="openapi-spec">petstore.yaml</span>');
    expect(get).toContain('<code>GET https://petstore.example/v1/pets</code>');
    expect(get).toContain('<code>limit</code> <span class="openapi-type">query · integer &#x3C;int32></span></p><div class="openapi-description"><p>How many pets to return</p></div>');
    expect(get).toMatch(/<strong>200<\/strong> <\/p><div class="openapi-description"><p>A page of pets<\/p><\/div><p><code>application\/json<\/code><\/p>/);
    // The response's items through the file's own $ref.
    expect(get).toContain('<code>name</code> <span class="openapi-type">string</span> <strong class="openapi-required">required</strong></p><div class="openapi-description"><p>The pet\'s name</p></div>');
    expect(html).toContain('<span class="openapi-summary">Get a user</span> <span class="openapi-spec">users.json</span>');
    expect(html).toContain('<code>GET https://users.example/users/{id}</code>');
    expect(html).toContain('<code>id</code> <span class="openapi-type">path · string</span> <strong class="openapi-required">required</strong>');
    expect(html).toContain('<strong>404</strong> </p><div class="openapi-description"><p>No such user</p></div>');
    expect(html).not.toContain('openapi-missing');
  });

  it('a spec file uploaded with a page through the API shows its operation too', async () => {
    const markdown = '# Upload\n\n{% swagger src=".gitbook/assets/petstore.yaml" path="/pets" method="get" %}\n[petstore.yaml](.gitbook/assets/petstore.yaml)\n{% endswagger %}\n';
    const space = await spaceWithPages(api, org, 'Uploaded', [markdown], [{ name: 'petstore.yaml', contentType: 'application/yaml', bytes: Buffer.from(PETSTORE) }]);
    const site = await publishedSite(api, org, [space.id], 'public');
    const res = await fetch(`${site.url}/upload`);
    expect(res.status).toBe(200);
    const html = squash(await res.text());
    expect(html).toContain('<code class="openapi-path">/pets</code> <span class="openapi-summary">List pets</span> <span class="openapi-spec">petstore.yaml</span>');
    expect(html).toContain('<code>limit</code> <span class="openapi-type">query · integer &#x3C;int32></span>');
  });

  it('a missing file, a file that is not a spec, a file that is not YAML, and an operation the file lacks are said on the page', async () => {
    const html = await readerPage('Broken specs');
    expect(html).toContain('<p class="openapi-missing">The spec file ../.gitbook/assets/gone.yaml is not in this space.</p>');
    expect(html).toContain('<p class="openapi-missing">The spec file notes.yaml could not be read: The document is not an OpenAPI 3.x or Swagger 2.0 specification: Missing "openapi" (3.x) or "swagger" (2.0) field.</p>');
    expect(html).toMatch(/<p class="openapi-missing">The spec file broken\.yaml could not be read: The spec is neither valid JSON nor valid YAML: Invalid YAML syntax at line \d+, column \d+ \([A-Z_]+\)\.<\/p>/);
    expect(html).toContain('<p class="openapi-missing">The spec petstore.yaml has no PATCH /pets operation.</p>');
    // Each block keeps what the page wrote (its link to the file).
    expect(html.match(/<div class="openapi">/g)).toHaveLength(4);
  });

  it('a file larger than a fetched spec may be is not read, and the page says so', async () => {
    openAPIFetchLimits.maxBytes = 100;
    // A site of its own: the page as the first site shows it was rendered under the usual limit,
    // and an instance serves a rendered page again for the same ETag (rendered-pages.ts); a
    // limit is the same for a process's whole life outside this test.
    const site = await publishedSite(api, org, [spaceId], 'public');
    const res = await fetch(`${site.url}/${pages['Pets']!.path}`);
    expect(res.status).toBe(200);
    const html = squash(await res.text());
    expect(html).toContain('<p class="openapi-missing">The spec file petstore.yaml could not be read: The file is larger than 100 bytes, the largest spec read.</p>');
    expect(html).not.toContain('<code>limit</code>');
  });

  it("labels are in the site's locale", async () => {
    const site = await publishedSite(api, org, [spaceId], 'public');
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    const put = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: { ...settings, internationalization: { locale: 'fr' } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // (squash makes the no-break space before the colon a space.)
    const html = squash(await (await fetch(`${site.url}/${pages['Broken specs']!.path}`)).text());
    expect(html).toContain('<p class="openapi-missing">Le fichier de spécification ../.gitbook/assets/gone.yaml n’est pas dans cet espace.</p>');
    expect(html).toContain('<p class="openapi-missing">Le fichier de spécification notes.yaml n’a pas pu être lu : The document');
  });

  it('a Git export writes the blocks and their files back unchanged', async () => {
    // A new repository: every page is printed from the space, none kept from the imported commit.
    const target = `spec-files-export-${Date.now()}`;
    await createRepo(server, target, { 'LICENSE': 'MIT\n' });
    await sync('export', { url: `${server.url}/${target}.git`, force: true });
    const dir = await cloneBranch(server, target, 'main');
    try {
      const files = await filesOf(dir);
      expect(files.get('reference/pets.md')?.toString()).toBe(PETS_PAGE);
      expect(files.get('reference/broken.md')?.toString()).toBe(BROKEN_PAGE);
      expect(files.get('.gitbook/assets/petstore.yaml')?.toString()).toBe(PETSTORE);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
