import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg } from './support/api.ts';
import { revokeAccessToken } from '../shared/commands/tokens/revoke.ts';

const api = useTestApi();

describe('authentication and errors', () => {
  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const org = await newOrg();
    const missing = await api.request('GET', `/orgs/${org.id}`);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: { code: 401, message: expect.stringContaining('bearer token') } });
    const unknown = await api.request('GET', `/orgs/${org.id}`, { token: 'dps_doesnotexist000000' });
    expect(unknown.status).toBe(401);
    const user = await org.member('read');
    await revokeAccessToken(user.token);
    const revoked = await api.request('GET', `/orgs/${org.id}`, { token: user.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toMatch(/revoked/);
  });

  it('unknown routes answer 404 JSON', async () => {
    const org = await newOrg();
    const res = await api.request('GET', '/no/such/route', { token: org.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
  });

  it('a path served with other methods answers 405 naming them (Allow), locally and from the catch-all group app as in AWS', async () => {
    const org = await newOrg();
    const space = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Methods' } });
    for (const token of [org.admin.token, null]) {
      const put = await api.request('PUT', `/spaces/${space.body.id}`, { token, body: { title: 'x' } });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
      expect(put.body).toEqual({ error: { code: 405, message: `PUT is not allowed on /v1/spaces/${space.body.id}: use GET, PATCH, DELETE` } });
    }
    const listOnly = await api.request('DELETE', '/orgs', { token: org.admin.token });
    expect(listOnly.status).toBe(405);
    expect(listOnly.headers.get('allow')).toBe('GET, HEAD');
    // Nothing changed, and the declared methods still answer.
    expect((await api.request('GET', `/spaces/${space.body.id}`, { token: org.admin.token })).body.title).toBe('Methods');
    // In AWS every request no route takes goes to one group's Lambda (the catch-all route): the same answers.
    const { app } = await import('../functions/organizations/app.ts');
    const { NOT_FOUND_GROUP } = await import('../infra/constructs/api.ts');
    expect(NOT_FOUND_GROUP).toBe('organizations');
    const viaCatchAll = await app.request(`/v1/spaces/${space.body.id}/change-requests`, { method: 'DELETE' });
    expect(viaCatchAll.status).toBe(405);
    expect(viaCatchAll.headers.get('allow')).toBe('GET, HEAD, POST');
    const ownPath = await app.request(`/v1/orgs/${org.id}`, { method: 'PUT', headers: { authorization: `Bearer ${org.admin.token}` } });
    expect(ownPath.status).toBe(405);
    expect(ownPath.headers.get('allow')).toBe('GET, HEAD, PATCH');
    expect((await app.request('/v1/no/such/route', { method: 'PUT' })).status).toBe(404);
  });

  it('a group answers 501 JSON for its operations that have no handler yet', async () => {
    // Every operation is implemented now; the mechanism stays for the next ones.
    const { groupApp } = await import('../shared/http/route.ts');
    const { group } = await import('../functions/sso/operations.ts');
    const app = groupApp(group);
    const org = await newOrg();
    const res = await app.request(`/v1/orgs/${org.id}/saml`, { headers: { authorization: `Bearer ${org.admin.token}` } });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: { code: 501, message: expect.stringContaining('listSAMLProvidersInOrganizationById') } });
  });
});

describe('error mapping', () => {
  it('maps data-store throttling to 429 with Retry-After, and hides unexpected errors behind a 500', async () => {
    const { Hono } = await import('hono');
    const { errorResponse } = await import('../shared/http/errors.ts');
    const app = new Hono();
    app.get('/throttled', () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    });
    app.get('/broken', () => {
      throw new Error('secret internals at line 42');
    });
    app.onError((error, c) => errorResponse(c, error));
    const throttled = await app.request('/throttled');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(await throttled.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/retry/) } });
    const broken = await app.request('/broken');
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: { code: 500, message: 'Internal server error' } });
  });
});
