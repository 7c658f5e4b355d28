import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { editContent, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { publishedSite } from './support/reader-site.ts';
import { processedSpec } from './support/openapi-specs.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

/**
 * An API docs team's walk: a petstore spec (OpenAPI 3.1 YAML: $refs, allOf, oneOf, enums,
 * examples, security schemes, path parameters, a webhook, a circular schema, HTML in
 * descriptions) uploaded as text, a Swagger 2.0 one by URL, pages naming their operations,
 * a published site: the reader shows what an API consumer needs from the spec itself.
 */

const api = useTestApi();

const PETSTORE = `openapi: 3.1.0
info:
  title: Petstore
  version: 1.2.0
servers:
  - url: https://api.petstore.example/v1
security:
  - bearerAuth: []
paths:
  /pets:
    post:
      summary: Create a pet
      description: |
        Adds a pet to the store. <script>window.__xss = 1</script><img src=x onerror="window.__xss=2">
        See **the guide**.
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewPet'}
            examples:
              cat: {summary: A cat, value: {name: Tom, kind: cat}}
      responses:
        '201':
          description: The created pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        default: {$ref: '#/components/responses/Error'}
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        description: The pet's id
        schema: {type: integer, format: int64}
    get:
      summary: Get a pet
      operationId: getPet
      parameters:
        - name: fields
          in: query
          description: Fields to include
          schema: {type: string, enum: [name, kind, owner]}
      security:
        - apiKey: []
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
              example: {id: 7, name: Rex, kind: dog}
        '404': {$ref: '#/components/responses/Error'}
webhooks:
  newPet:
    post:
      summary: A pet was added
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '200': {description: Acknowledged}
components:
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
    apiKey: {type: apiKey, in: header, name: X-API-Key}
  responses:
    Error:
      description: An error
      content:
        application/json:
          schema:
            type: object
            properties:
              message: {type: string}
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string, description: The pet's name, example: Rex}
        kind: {type: string, enum: [cat, dog, bird]}
        owner:
          oneOf:
            - {$ref: '#/components/schemas/Person'}
            - {type: string, description: An owner's id}
        category: {$ref: '#/components/schemas/Category'}
        photo: {$ref: 'https://schemas.example/photo.json'}
    Pet:
      allOf:
        - {$ref: '#/components/schemas/NewPet'}
        - type: object
          required: [id]
          properties:
            id: {type: integer, format: int64}
    Person:
      type: object
      properties:
        email: {type: string, format: email}
    Category:
      type: object
      properties:
        label: {type: string}
        parent: {$ref: '#/components/schemas/Category'}
`;

const SWAGGER = {
  swagger: '2.0',
  info: { title: 'Users', version: '1' },
  host: 'users.example',
  basePath: '/api',
  schemes: ['https'],
  paths: {
    '/users/{id}': {
      get: {
        summary: 'Get a user',
        parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }, { name: 'verbose', in: 'query', type: 'boolean' }],
        responses: { 200: { description: 'The user', schema: { $ref: '#/definitions/User' }, examples: { 'application/json': { login: 'ada' } } } },
      },
    },
  },
  definitions: { User: { type: 'object', properties: { login: { type: 'string', description: 'Sign-in name' } } } },
};

const PAGE = `# Pets API

{% openapi-operation spec="petstore" path="/pets/{petId}" method="get" %}

{% openapi src="petstore" path="/pets" method="post" %}
[petstore](petstore)
{% endopenapi %}

{% openapi-webhook spec="petstore" name="newPet" method="post" %}

{% openapi-operation spec="petstore" path="/kittens" method="get" %}

{% openapi-schemas spec="petstore" schemas="Category,Person" grouped="false" %}
`;

let org: TestOrg;
let pageUrl: string;
let usersUrl: string;
let swaggerUrl: string;
let apiSpaceId: string;
/** What the spec server answers (a test changes it, then asks for processing again). */
let swaggerServed: unknown = SWAGGER;
const specHost = useLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(swaggerServed)));

const processed = (slug: string) => processedSpec(org.id, slug);

beforeAll(async () => {
  swaggerUrl = `${specHost.url}/swagger.json`;
  org = await newOrg();
  await createOpenAPISpec(api, org, 'petstore', { text: PETSTORE });
  await createOpenAPISpec(api, org, 'users', { url: swaggerUrl });
  for (const slug of ['petstore', 'users']) expect((await processed(slug)).lastProcessErrorCode, slug).toBeUndefined();
  const { space, cr } = await spaceWithChangeRequest(api, org, 'API');
  const existing = await pagesByTitle(api, org, space.id, cr.id);
  await editContent(api, org, space.id, cr.id, [
    { operation: 'insert_page', document: { markdown: PAGE } },
    { operation: 'insert_page', document: { markdown: `# Users\n\n{% swagger src="${swaggerUrl}" path="/users/{id}" method="get" %}\n[Users](${swaggerUrl})\n{% endswagger %}\n` } },
    ...Object.values(existing).map((page) => ({ operation: 'delete_page', page: page.id })),
  ]);
  const merged = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token });
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  apiSpaceId = space.id;
  const site = await publishedSite(api, org, [space.id], 'public');
  pageUrl = `${site.url}/pets-api`;
  usersUrl = `${site.url}/users`;
}, 120_000);

const squash = (html: string) => html.replace(/\s+/g, ' ');

describe('OpenAPI operations in the reader', () => {
  it('an openapi-operation block shows the operation from the stored spec: server, auth, parameters, responses, example', async () => {
    const res = await fetch(pageUrl);
    expect(res.status).toBe(200);
    const html = squash(await res.text());
    const get = html.slice(html.indexOf('<span class="openapi-method">GET</span>'), html.indexOf('<span class="openapi-method">POST</span>'));
    expect(get).toContain('<code class="openapi-path">/pets/{petId}</code> <span class="openapi-summary">Get a pet</span> <span class="openapi-spec">petstore</span>');
    expect(get).toContain('<code>GET https://api.petstore.example/v1/pets/{petId}</code>');
    expect(get).toContain('<h4>Authorization</h4><ul><li>apiKey (apiKey, X-API-Key in header)</li></ul>');
    // The operation's own parameter, then the path-level one (required, as path parameters are).
    expect(get).toContain('<code>fields</code> <span class="openapi-type">query · string</span></p><div class="openapi-description"><p>Fields to include</p></div><p class="openapi-enum">One of: <code>name</code>, <code>kind</code>, <code>owner</code></p>');
    expect(get).toContain('<code>petId</code> <span class="openapi-type">path · integer &#x3C;int64></span> <strong class="openapi-required">required</strong>');
    // 200: the Pet schema through allOf (NewPet's properties and its own id), the example.
    expect(get).toMatch(/<strong>200<\/strong>.*<p>The pet<\/p>.*<code>application\/json<\/code>/);
    expect(get).toContain('<code>name</code> <span class="openapi-type">string</span> <strong class="openapi-required">required</strong>');
    expect(get).toContain('<code>id</code> <span class="openapi-type">integer &#x3C;int64></span> <strong class="openapi-required">required</strong>');
    expect(get).toContain('<code>kind</code> <span class="openapi-type">string</span></p><p class="openapi-enum">One of: <code>cat</code>, <code>dog</code>, <code>bird</code></p>');
    expect(get).toContain('<p>One of these:</p><ol><li><code>object</code>');
    expect(get).toContain('<code>email</code> <span class="openapi-type">string &#x3C;email></span>');
    // The circular Category.parent is named, not expanded forever; the external $ref is named, not fetched.
    expect(get).toContain('<code>parent</code> <span class="openapi-type">Category</span> <span class="openapi-type">(Category, shown above)</span>');
    expect(get).toContain('<code>photo</code> <span class="openapi-type">photo.json</span> <span class="openapi-type">(defined in <code>https://schemas.example/photo.json</code>)</span>');
    expect(get).toMatch(/<details class="openapi-example"><summary>Example<\/summary><pre tabindex="0"><code>\{ "id": 7, "name": "Rex", "kind": "dog" \}<\/code><\/pre><\/details>/);
    // The 404 through a components response.
    expect(get).toMatch(/<strong>404<\/strong>.*<p>An error<\/p>.*<code>message<\/code> <span class="openapi-type">string<\/span>/);
  });

  it('an {% openapi %} block naming the spec by slug shows the request body; HTML in descriptions is not rendered', async () => {
    const html = squash(await (await fetch(pageUrl)).text());
    const post = html.slice(html.indexOf('<span class="openapi-method">POST</span>'));
    expect(post).toContain('<span class="openapi-summary">Create a pet</span>');
    expect(post).toContain('<h4>Authorization</h4><ul><li>bearerAuth (http, bearer)</li></ul>');
    expect(post).toMatch(/<h4>Request body<\/h4><p><strong class="openapi-required">required<\/strong><\/p><p><code>application\/json<\/code><\/p>/);
    expect(post).toContain('<summary>Example</summary><pre tabindex="0"><code>{ "name": "Tom", "kind": "cat" }</code></pre>');
    // The description's HTML goes through the reader's sanitizer: the script goes with its text, the handler too.
    expect(post).toMatch(/<div class="openapi-description"><p>Adds a pet to the store\. (<img src="x">)?\s?See <strong>the guide<\/strong>\.<\/p><\/div>/);
    expect(html).not.toMatch(/__xss|onerror/);
    // The webhook, and an operation the spec does not have (said, not silently empty).
    expect(html).toContain('<span class="openapi-summary">A pet was added</span>');
    expect(html).toContain('<strong>200</strong> </p><div class="openapi-description"><p>Acknowledged</p></div>');
    expect(html).toContain('<p class="openapi-missing">The spec petstore has no GET /kittens operation.</p>');
    // openapi-schemas: each named schema, under GitBook's default title; its own circular ref named.
    const schemas = html.slice(html.indexOf('<h4>The Category object</h4>'));
    expect(schemas).toMatch(/^<h4>The Category object<\/h4><ul class="openapi-schema"><li><p><code>label<\/code> <span class="openapi-type">string<\/span><\/p><\/li><li><p><code>parent<\/code> <span class="openapi-type">Category<\/span> <span class="openapi-type">\(Category, shown above\)<\/span>/);
    expect(schemas).toContain('<h4>The Person object</h4><ul class="openapi-schema"><li><p><code>email</code> <span class="openapi-type">string &#x3C;email></span></p></li></ul>');
  });

  it('a {% swagger %} block whose src is a stored Swagger 2.0 spec\'s URL shows its operation', async () => {
    const html = squash(await (await fetch(usersUrl)).text());
    expect(html).toContain('<span class="openapi-summary">Get a user</span> <span class="openapi-spec">users</span>');
    expect(html).toContain('<code>GET https://users.example/api/users/{id}</code>');
    expect(html).toContain('<code>id</code> <span class="openapi-type">path · string</span> <strong class="openapi-required">required</strong>');
    expect(html).toContain('<code>verbose</code> <span class="openapi-type">query · boolean</span>');
    expect(html).toContain('<code>login</code> <span class="openapi-type">string</span></p><div class="openapi-description"><p>Sign-in name</p></div>');
    expect(html).toContain('<pre tabindex="0"><code>{ "login": "ada" }</code></pre>');
  });

  it('a public spec\'s urls.published serves its document to anyone; private and unknown specs are 404', async () => {
    const spec = `/orgs/${org.id}/openapi/petstore`;
    const before = await api.request('GET', spec, { token: org.admin.token });
    expect(before.body.urls.published).toBeUndefined();
    const privateUrl = `${api.url}/s/~openapi/${org.id}/petstore`;
    expect((await fetch(privateUrl)).status).toBe(404);
    const made = await api.request('PATCH', spec, { token: org.admin.token, body: { visibility: 'public' } });
    expect(made.status).toBe(200);
    expect(made.body.urls.published).toBe(privateUrl);
    const res = await fetch(made.body.urls.published);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // Compressed for fetch (it asks for gzip): the ETag is then weak.
    expect(res.headers.get('etag')).toBe(`W/"${made.body.lastVersion}"`);
    expect(await res.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Petstore' }, webhooks: { newPet: {} } });
    for (const url of [`${api.url}/s/~openapi/${org.id}/nope`, `${api.url}/s/~openapi/other-org/petstore`, `${api.url}/s/~openapi/${org.id}/bad_slug`]) {
      expect((await fetch(url)).status, url).toBe(404);
    }
    await api.request('PATCH', spec, { token: org.admin.token, body: { visibility: 'private' } });
    expect((await fetch(privateUrl)).status).toBe(404);
  });

  it('a page showing a spec changes with the spec: a new version is a new ETag, never a stale 304', async () => {
    const first = await fetch(usersUrl);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect((await fetch(usersUrl, { headers: { 'if-none-match': etag } })).status).toBe(304);
    swaggerServed = { ...SWAGGER, paths: { '/users/{id}': { get: { ...SWAGGER.paths['/users/{id}'].get, summary: 'Fetch one user' } } } };
    const put = await api.request('PUT', `/orgs/${org.id}/openapi/users`, { token: org.admin.token, body: { source: { url: swaggerUrl } } });
    expect(put.status).toBe(200);
    expect((await processed('users')).lastProcessErrorCode).toBeUndefined();
    const after = await fetch(usersUrl, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(squash(await after.text())).toContain('<span class="openapi-summary">Fetch one user</span>');
  });

  it("labels are in the site's locale (fr); the spec's own words are not translated", async () => {
    const site = await publishedSite(api, org, [apiSpaceId], 'public');
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    const put = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: { ...settings, internationalization: { locale: 'fr' } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const html = squash(await (await fetch(`${site.url}/pets-api`)).text());
    const get = html.slice(html.indexOf('<span class="openapi-method">GET</span>'), html.indexOf('<span class="openapi-method">POST</span>'));
    expect(get).toContain('<h4>Autorisation</h4><ul><li>apiKey (apiKey, X-API-Key in header)</li></ul>');
    expect(get).toContain('<h4>Paramètres</h4>');
    expect(get).toContain('<h4>Réponses</h4>');
    expect(get).toContain('<p class="openapi-enum">Une valeur parmi : <code>name</code>, <code>kind</code>, <code>owner</code></p>');
    expect(get).toContain('<code>petId</code> <span class="openapi-type">path · integer &#x3C;int64></span> <strong class="openapi-required">requis</strong>');
    expect(get).toContain('<p>L’un de ceux-ci :</p>');
    expect(get).toContain('<span class="openapi-type">(Category, voir plus haut)</span>');
    expect(get).toContain('<span class="openapi-type">(défini dans <code>https://schemas.example/photo.json</code>)</span>');
    expect(get).toContain('<summary>Exemple</summary>');
    expect(get).toContain('<p>The pet</p>');
    expect(html).toContain('<h4>Corps de la requête</h4><p><strong class="openapi-required">requis</strong></p>');
    expect(html).toContain('<p class="openapi-missing">La spécification petstore n’a pas d’opération GET /kittens.</p>');
    expect(html).toContain('<h4>L’objet Category</h4>');
    expect(html).not.toMatch(/>(Parameters|Responses|Request body|Authorization|required|Example)</);
  });
});
