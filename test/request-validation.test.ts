import { describe, expect, it } from 'vitest';
import { useTestApi, type TestResponse } from './support/api.ts';
import { snapshot, useHostileFixture } from './support/hostile/fixtures.ts';
import { createChangeRequest, createPage } from './support/factories.ts';
import { loadRevision } from '../shared/content/revisions.ts';

/**
 * The shared request validation (shared/http/validate.ts, json-body.ts) as a caller of the
 * public interface meets it: the messages valibot would word are the service's own, and an
 * empty body is {}. Every refusal is a 400 in the error shape that writes nothing.
 */
const api = useTestApi();
const f = useHostileFixture(api, 'Validation messages');

const token = () => f.org.admin.token;
const siteSpaces = () => `/orgs/${f.org.id}/sites/${f.params.siteId}/site-spaces`;
const content = () => `/spaces/${f.params.spaceId}/change-requests/${f.params.changeRequestId}/content`;

function expectError(res: TestResponse, message: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ error: { code: 400, message } });
}

/** Sends each request and expects its 400 with `message`, and the fixture's records unchanged. */
async function refused(cases: [() => Promise<TestResponse>, string][]): Promise<void> {
  const before = await snapshot(f);
  for (const [send, message] of cases) expectError(await send(), message);
  expect(await snapshot(f)).toBe(before);
}

describe('a missing required key reads "<field>: is required"', () => {
  it('in a strict object body, a non-strict one and a content change (variant) without its document or operation', async () => {
    await refused([
      [() => api.request('POST', siteSpaces(), { token: token(), body: {} }), 'spaceId: is required'],
      [() => api.request('PUT', `/orgs/${f.org.id}/sites/${f.params.siteId}/customization`, { token: token(), body: {} }), 'styling: is required'],
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ operation: 'insert_page' }] } }), 'changes.0.document: is required'],
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ operation: 'update_page', title: 'x' }] } }), 'changes.0.page: is required'],
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ document: { markdown: 'x' } }] } }), 'changes.0.operation: is required'],
    ]);
  });

  it('valibot\'s other default messages a caller can reach read in the service\'s words, naming the field', async () => {
    await refused([
      // A wrong type where the schema has no message of its own.
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ operation: 'insert_files', files: [{ name: 'a.png', url: 'https://example.com/a.png', contentType: 3 }] }] } }),
        'changes.0.files.0.contentType: must be a string'],
      [() => api.request('PUT', `/orgs/${f.org.id}/sites/${f.params.siteId}/customization`, { token: token(), body: { styling: 3 } }), 'styling: must be an object'],
      // Unchanged: the schemas' own messages and unknown fields.
      [() => api.request('POST', siteSpaces(), { token: token(), body: { spaceId: 3 } }), 'spaceId: must be a string'],
      [() => api.request('POST', siteSpaces(), { token: token(), body: { spaceId: f.params.spaceId, colour: 'red' } }), 'colour: is not an allowed field'],
    ]);
    // A query parameter sent twice (valibot: "Invalid type: Expected string but received Array").
    const res = await fetch(`${api.url}/v1/orgs/${f.org.id}/spaces?limit=1&limit=2`, { headers: { authorization: `Bearer ${token()}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message: 'limit: must be given once' } });
  });
});

describe('an empty body validates as {}, whatever its Content-Type', () => {
  const empty = (rawBody: string, contentType?: string) => () =>
    api.request('POST', siteSpaces(), { token: token(), rawBody, headers: contentType === undefined ? {} : { 'content-type': contentType } });

  it('an operation whose body has a required field names it', async () => {
    await refused([
      [empty('', 'application/json'), 'spaceId: is required'],
      [empty(' \n\t ', 'application/json'), 'spaceId: is required'],
      [empty('', 'application/json; charset=utf-8'), 'spaceId: is required'],
      [empty('', 'text/plain'), 'spaceId: is required'],
      [empty('', ''), 'spaceId: is required'],
      [() => api.request('POST', content(), { token: token(), rawBody: '', headers: { 'content-type': 'application/json' } }), 'changes: is required'],
    ]);
    // A body that is there is still checked: not JSON, or JSON under another media type.
    expectError(await empty('{', 'application/json')(), 'body: is not valid JSON');
    expect((await empty('{}', 'text/plain')()).status).toBe(415);
  });

  it('an operation whose body has no required field proceeds', async () => {
    for (const contentType of ['application/json', 'text/plain']) {
      const res = await api.request('POST', `/orgs/${f.org.id}/collections`, { token: token(), rawBody: '', headers: { 'content-type': contentType } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const get = await api.request('GET', `/collections/${res.body.id}`, { token: token() });
      expect(get.status).toBe(200);
      expect(get.body.id).toBe(res.body.id);
    }
  });
});

describe('content changes: the public interface\'s page `condition`', () => {
  it('insert_page and update_page accept a condition and store nothing of it (pages have no condition here)', async () => {
    const org = f.org;
    const spaceId = f.params.spaceId!;
    const cr = await createChangeRequest(api, org, spaceId, { subject: 'Conditions' });
    const condition = "visitor.claims.plan == 'enterprise-only'";
    const path = `/spaces/${spaceId}/change-requests/${cr.id}/content`;
    const inserted = await api.request('POST', path, { token: token(), body: { changes: [{ operation: 'insert_page', title: 'Gated', condition, document: { markdown: 'Text\n' } }] } });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const pages = (await api.request('GET', `${path}/pages`, { token: token() })).body.pages as { id: string; title: string }[];
    const page = pages.find((p) => p.title === 'Gated')!;
    expect(page).toBeDefined();
    const updated = await api.request('POST', path, { token: token(), body: { changes: [{ operation: 'update_page', page: page.id, condition: '' }, { operation: 'update_page', page: page.id, condition, description: 'Kept' }] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);

    const presented = await api.request('GET', `${path}/page/${page.id}`, { token: token() });
    expect(presented.status).toBe(200);
    expect(presented.body).toMatchObject({ title: 'Gated', description: 'Kept' });
    expect(presented.body).not.toHaveProperty('condition');
    // The change request's stored revision holds no trace of it.
    const current = await api.request('GET', `/spaces/${spaceId}/change-requests/${cr.id}`, { token: token() });
    const stored = await loadRevision(spaceId, current.body.revision);
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored!.manifest)).not.toContain('condition');
    expect(JSON.stringify(stored!.manifest)).not.toContain('enterprise-only');
  });

  it('a condition that is not a string is refused, naming it, and stores nothing', async () => {
    const page = await createPage(api, f.org, f.params.spaceId!, { changeRequest: f.params.changeRequestId! });
    await refused([
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ operation: 'insert_page', condition: 3, document: {} }] } }), 'changes.0.condition: must be a string'],
      [() => api.request('POST', content(), { token: token(), body: { changes: [{ operation: 'update_page', page: page.id, condition: 'x'.repeat(1025) }] } }), 'changes.0.condition: must be at most 1024 characters'],
    ]);
  });
});
