import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { processedSpec } from './support/openapi-specs.ts';
import { readPdf } from './support/pdf-text.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';

/**
 * A page's markdown exports (`<page>.md`, llms-full.txt) and its PDF print the OpenAPI
 * operations the HTML page shows: GitBook's `.md` shape (the summary as a heading, the
 * description as a quote, the operation's part of the spec as fenced JSON) from a stored spec
 * of the organization and from a spec file of the space; a block without its operation
 * prints the page's sentence; the PDF holds a readable operation section.
 */

const api = useTestApi();

const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
servers:
  - url: https://api.petstore.example/v1
paths:
  /pets/{petId}:
    get:
      summary: Get a pet
      description: Returns **one** pet. <script>window.x = 1</script>
      parameters:
        - name: petId
          in: path
          required: true
          description: The pet's id
          schema: {type: integer}
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: string}
        owner: {$ref: '#/components/schemas/Person'}
    Person:
      type: object
      properties:
        login: {type: string}
    Unused:
      type: string
`;

const USERS = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Users', version: '1' },
  host: 'users.example',
  paths: { '/users/{id}': { get: { summary: 'Get a user', parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }], responses: { 404: { description: 'No such user' } } } } },
});

const PAGE = `# Reference

{% openapi-operation spec="petstore" path="/pets/{petId}" method="get" %}

{% swagger src=".gitbook/assets/users.json" path="/users/{id}" method="get" %}
[users.json](.gitbook/assets/users.json)
{% endswagger %}

{% openapi-operation spec="petstore" path="/kittens" method="get" %}

{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}

{% swagger src=".gitbook/assets/gone.yaml" path="/pets" method="get" %}
[gone.yaml](.gitbook/assets/gone.yaml)
{% endswagger %}
`;

let org: TestOrg;
let siteUrl: string;
let spaceId: string;

/** The fenced JSON block that follows `heading` in `markdown`, parsed. */
function jsonAfter(markdown: string, heading: string): Record<string, any> {
  const rest = markdown.slice(markdown.indexOf(heading));
  const match = rest.match(/```json\n(.*)\n```/);
  expect(match, rest.slice(0, 400)).not.toBeNull();
  return JSON.parse(match![1]!);
}

beforeAll(async () => {
  org = await newOrg();
  await createOpenAPISpec(api, org, 'petstore', { text: PETSTORE });
  expect((await processedSpec(org.id, 'petstore')).lastProcessErrorCode).toBeUndefined();
  const space = await spaceWithPages(api, org, 'API', [PAGE], [{ name: 'users.json', contentType: 'application/json', bytes: Buffer.from(USERS) }]);
  spaceId = space.id;
  const site = await publishedSite(api, org, [space.id], 'public');
  siteUrl = site.url;
  const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
  delete settings.updatedAt;
  settings.pageActions = { items: ['markdown', 'pdf'] };
  const put = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}, 120_000);

describe('OpenAPI operations in the exports', () => {
  it('the page .md prints an operation of a stored spec as GitBook does: heading, quoted description, the spec fragment as JSON', async () => {
    const res = await fetch(`${siteUrl}/reference.md`);
    expect(res.status).toBe(200);
    const md = await res.text();
    const lines = md.split('\n');
    expect(lines).toContain('## Get a pet');
    // The description's markdown kept; its script element is not exported (the JSON block shows the spec as written).
    expect(lines.find((l) => l.startsWith('> '))).toMatch(/^> Returns \*\*one\*\* pet\./);
    expect(md.replace(/```json\n.*\n```/g, '')).not.toContain('<script');
    const fragment = jsonAfter(md, '## Get a pet');
    expect(fragment.openapi).toBe('3.0.3');
    expect(fragment.servers).toEqual([{ url: 'https://api.petstore.example/v1' }]);
    expect(Object.keys(fragment.paths)).toEqual(['/pets/{petId}']);
    expect(fragment.paths['/pets/{petId}'].get.parameters[0]).toMatchObject({ name: 'petId', in: 'path', required: true });
    expect(fragment.paths['/pets/{petId}'].get.responses['200'].description).toBe('The pet');
    // The components the operation reaches (through Pet to Person), and no others.
    expect(Object.keys(fragment.components.schemas).sort()).toEqual(['Person', 'Pet']);
  });

  it('the page .md prints an operation of a spec file of the space, and the sentences of blocks without their operation', async () => {
    const md = await (await fetch(`${siteUrl}/reference.md`)).text();
    const lines = md.split('\n');
    expect(lines).toContain('## Get a user');
    const fragment = jsonAfter(md, '## Get a user');
    expect(fragment).toMatchObject({ swagger: '2.0', host: 'users.example' });
    expect(fragment.paths['/users/{id}'].get.responses['404'].description).toBe('No such user');
    // What the page wrote in the block follows it.
    expect(md).toMatch(/## Get a user\n\n```json\n.*\n```\n\n\[users\.json\]\(http/);
    expect(lines).toContain('The spec petstore has no GET /kittens operation.');
    expect(lines).toContain('The spec file .gitbook/assets/gone.yaml is not in this space.');
  });

  it('the page .md prints an openapi-schemas block as GitBook does: "The Pet object", then the schemas it reaches as JSON', async () => {
    const md = await (await fetch(`${siteUrl}/reference.md`)).text();
    expect(md.split('\n')).toContain('## The Pet object');
    const fragment = jsonAfter(md, '## The Pet object');
    expect(fragment.openapi).toBe('3.0.3');
    expect(Object.keys(fragment.components.schemas).sort()).toEqual(['Person', 'Pet']);
  });

  it('llms-full.txt prints the operations too', async () => {
    const res = await fetch(`${siteUrl}/llms-full.txt`);
    expect(res.status).toBe(200);
    const full = await res.text();
    const lines = full.split('\n');
    expect(lines).toContain('## Get a pet');
    expect(lines).toContain('## Get a user');
    expect(jsonAfter(full, '## Get a pet').paths['/pets/{petId}'].get.summary).toBe('Get a pet');
    expect(lines).toContain('The spec petstore has no GET /kittens operation.');
  });

  it("the page's PDF holds a readable operation: method, path, parameters and responses", async () => {
    const res = await fetch(`${siteUrl}/reference.pdf`);
    expect(res.status).toBe(200);
    const { text } = await readPdf(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('GET /pets/{petId}');
    expect(text).toContain('GET https://api.petstore.example/v1/pets/{petId}');
    expect(text).toMatch(/petId path integer required The pet's id/);
    expect(text).toMatch(/200 The pet application\/json \(object\)/);
    expect(text).toContain('GET /users/{id}');
    expect(text).toMatch(/404 No such user/);
    expect(text).toContain('The spec petstore has no GET /kittens operation.');
  });

  it("the space's PDF (GET /spaces/{spaceId}/pdf) holds the operation section too", async () => {
    const res = await api.request('GET', `/spaces/${spaceId}/pdf`, { token: org.admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const pdf = await fetch(res.body.url);
    expect(pdf.status).toBe(200);
    const { text } = await readPdf(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('GET /pets/{petId}');
    expect(text).toMatch(/petId path integer required The pet's id/);
    expect(text).toMatch(/id path string required/);
    expect(text).toContain('The spec file .gitbook/assets/gone.yaml is not in this space.');
  });
});
