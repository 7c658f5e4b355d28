import { expect } from 'vitest';
import type { TestApi, TestOrg } from './api.ts';

/**
 * Resources made through the HTTP API, as a client would: each factory asserts the creation
 * answered 201 and returns the presented body. `overrides` are merged over the defaults into the
 * request body; `token` defaults to the org admin's.
 */

// Presented bodies are read freely by the tests, as TestResponse.body is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Presented = any;

async function created(api: TestApi, path: string, token: string, body: Record<string, unknown>): Promise<Presented> {
  const res = await api.request('POST', path, { token, body });
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** A space titled 'Docs' unless overridden. */
export function createSpace(api: TestApi, org: TestOrg, overrides: Record<string, unknown> = {}, token = org.admin.token): Promise<Presented> {
  return created(api, `/orgs/${org.id}/spaces`, token, { title: 'Docs', ...overrides });
}

/** A collection; the body is `overrides` alone (the API's defaults apply). */
export function createCollection(api: TestApi, org: TestOrg, overrides: Record<string, unknown> = {}, token = org.admin.token): Promise<Presented> {
  return created(api, `/orgs/${org.id}/collections`, token, { ...overrides });
}

/** A change request in the space, with subject 'Change' unless overridden. */
export function createChangeRequest(api: TestApi, org: TestOrg, space: string | { id: string }, overrides: Record<string, unknown> = {}, token = org.admin.token): Promise<Presented> {
  const spaceId = typeof space === 'string' ? space : space.id;
  return created(api, `/spaces/${spaceId}/change-requests`, token, { subject: 'Change', ...overrides });
}

/** A site; the body is `overrides` alone (the API's defaults apply). */
export function createSite(api: TestApi, org: TestOrg, overrides: Record<string, unknown> = {}, token = org.admin.token): Promise<Presented> {
  return created(api, `/orgs/${org.id}/sites`, token, { ...overrides });
}
