import { describe, expect, it } from 'vitest';
import { useTestApi, type TestResponse } from './support/api.ts';
import { snapshot, useHostileFixture } from './support/hostile/fixtures.ts';
import { createChangeRequest, createPage } from './support/factories.ts';

/**
 * Text limits count characters as the public interface's JSON Schema maxLength does: Unicode
 * code points (shared/http/string-length.ts). Not UTF-16 code units, where an emoji counts 2,
 * nor graphemes, where 👩‍💻 (three code points) counts 1.
 */
const api = useTestApi();
const f = useHostileFixture(api, 'String lengths');

const token = () => f.org.admin.token;

/** Exactly `n` code points, all astral or joiners: 5/3 as many UTF-16 units, a third as many graphemes. */
function chars(n: number): string {
  const text = '👩‍💻'.repeat(Math.floor(n / 3)) + '😀'.repeat(n % 3);
  expect([...text].length).toBe(n);
  return text;
}

async function accepted(res: TestResponse, status = 201): Promise<TestResponse> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

/** Each request is a 400 naming the field, and the fixture's records are unchanged. */
async function refused(cases: [() => Promise<TestResponse>, string][]): Promise<void> {
  const before = await snapshot(f);
  for (const [send, message] of cases) {
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message } });
  }
  expect(await snapshot(f)).toBe(before);
}

describe('a text of exactly the limit in emoji is accepted and stored intact', () => {
  it('space, collection, team, organization and site titles, collection description', async () => {
    const org = f.org.id;
    const space = await accepted(await api.request('POST', `/orgs/${org}/spaces`, { token: token(), body: { title: chars(50) } }));
    expect((await api.request('GET', `/spaces/${space.body.id}`, { token: token() })).body.title).toBe(chars(50));

    const collection = await accepted(await api.request('POST', `/orgs/${org}/collections`, { token: token(), body: { title: chars(50) } }));
    await accepted(await api.request('PATCH', `/collections/${collection.body.id}`, { token: token(), body: { description: chars(100) } }), 200);
    expect((await api.request('GET', `/collections/${collection.body.id}`, { token: token() })).body).toMatchObject({ title: chars(50), description: chars(100) });

    const team = await accepted(await api.request('PUT', `/orgs/${org}/teams`, { token: token(), body: { title: chars(64) } }));
    expect((await api.request('GET', `/orgs/${org}/teams/${team.body.id}`, { token: token() })).body.title).toBe(chars(64));

    await accepted(await api.request('PATCH', `/orgs/${org}`, { token: token(), body: { title: chars(100) } }), 200);
    expect((await api.request('GET', `/orgs/${org}`, { token: token() })).body.title).toBe(chars(100));

    const site = await accepted(await api.request('POST', `/orgs/${org}/sites`, { token: token(), body: { title: chars(128) } }));
    expect((await api.request('GET', `/orgs/${org}/sites/${site.body.id}`, { token: token() })).body.title).toBe(chars(128));
  });

  it('a change request subject, and a page title and description (content changes)', async () => {
    const spaceId = f.params.spaceId!;
    const cr = await createChangeRequest(api, f.org, spaceId, { subject: chars(100) });
    expect((await api.request('GET', `/spaces/${spaceId}/change-requests/${cr.id}`, { token: token() })).body.subject).toBe(chars(100));

    const page = await createPage(api, f.org, spaceId, { changeRequest: cr.id, title: chars(250) });
    expect(page.title).toBe(chars(250));
    const content = `/spaces/${spaceId}/change-requests/${cr.id}/content`;
    await accepted(await api.request('POST', content, { token: token(), body: { changes: [{ operation: 'update_page', page: page.id, description: chars(1000) }] } }), 200);
    expect((await api.request('GET', `${content}/page/${page.id}`, { token: token() })).body).toMatchObject({ title: chars(250), description: chars(1000) });
  });
});

it('a duplicated space keeps its emoji title whole: " (copy)" is cut by characters, never inside an emoji', async () => {
  const title = `a${'😀'.repeat(30)}`;
  const space = await accepted(await api.request('POST', `/orgs/${f.org.id}/spaces`, { token: token(), body: { title } }));
  const copy = await accepted(await api.request('POST', `/spaces/${space.body.id}/duplicate`, { token: token() }));
  expect(copy.body.title).toBe(`${title} (copy)`);
  const full = await accepted(await api.request('POST', `/orgs/${f.org.id}/spaces`, { token: token(), body: { title: chars(50) } }));
  expect((await accepted(await api.request('POST', `/spaces/${full.body.id}/duplicate`, { token: token() }))).body.title).toBe(chars(50));
});

describe('one character over the limit is refused, naming the field', () => {
  it('with the limit in the message, although graphemes are far fewer', async () => {
    const { organizationId: org, spaceId, collectionId, teamId, changeRequestId } = f.params;
    const content = `/spaces/${spaceId}/change-requests/${changeRequestId}/content`;
    await refused([
      [() => api.request('POST', `/orgs/${org}/spaces`, { token: token(), body: { title: chars(51) } }), 'title: must be at most 50 characters'],
      [() => api.request('PATCH', `/spaces/${spaceId}`, { token: token(), body: { title: chars(51) } }), 'title: must be at most 50 characters'],
      [() => api.request('PATCH', `/collections/${collectionId}`, { token: token(), body: { title: chars(51) } }), 'title: must be at most 50 characters'],
      [() => api.request('PATCH', `/collections/${collectionId}`, { token: token(), body: { description: chars(101) } }), 'description: must be at most 100 characters'],
      [() => api.request('PATCH', `/orgs/${org}/teams/${teamId}`, { token: token(), body: { title: chars(65) } }), 'title: must be at most 64 characters'],
      [() => api.request('PATCH', `/orgs/${org}`, { token: token(), body: { title: chars(101) } }), 'title: must be at most 100 characters'],
      [() => api.request('PATCH', `/spaces/${spaceId}/change-requests/${changeRequestId}`, { token: token(), body: { subject: chars(101) } }), 'subject: must be at most 100 characters'],
      [() => api.request('POST', content, { token: token(), body: { changes: [{ operation: 'insert_page', title: chars(251), document: {} }] } }), 'changes.0.title: must be at most 250 characters'],
      [() => api.request('POST', content, { token: token(), body: { changes: [{ operation: 'insert_page', title: 'Long', description: chars(1001), document: {} }] } }), 'changes.0.description: must be at most 1000 characters'],
      [() => api.request('POST', `/orgs/${org}/sites`, { token: token(), body: { title: chars(129) } }), 'title: must be 2 to 128 characters'],
    ]);
  });

  it('a minimum counts characters too: one emoji is one character, under a minimum of 2', async () => {
    await refused([
      [() => api.request('POST', `/orgs/${f.org.id}/sites`, { token: token(), body: { title: '😀' } }), 'title: must be 2 to 128 characters'],
      [() => api.request('PATCH', `/orgs/${f.org.id}`, { token: token(), body: { title: '😀' } }), 'title: must be at least 2 characters'],
    ]);
  });
});

it('the service\'s OpenAPI description states these limits as maxLength/minLength', async () => {
  const doc = (await api.request('GET', '/openapi.json')).body;
  const body = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
  expect(body('/orgs/{organizationId}/spaces', 'post').properties.title).toMatchObject({ type: 'string', maxLength: 50 });
  expect(body('/orgs/{organizationId}/teams', 'put').properties.title).toMatchObject({ maxLength: 64 });
  expect(body('/orgs/{organizationId}/sites', 'post').properties.title).toMatchObject({ minLength: 2, maxLength: 128 });
  expect(body('/spaces/{spaceId}/change-requests', 'post').properties.subject).toMatchObject({ maxLength: 100 });
});
