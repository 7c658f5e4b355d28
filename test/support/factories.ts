import { expect } from 'vitest';
import { randomId } from '../../shared/ids.ts';
import type { TestApi, TestOrg } from './api.ts';

/**
 * Resources made through the HTTP API, as a client would: each factory asserts the creation
 * answered as the operation documents (201, or 200 where the interface says so) and returns the
 * presented body. `overrides` are merged over the defaults into the request body; `token`
 * defaults to the org admin's. Members have no create operation (they join through SSO, domain
 * join or the admin CLI): `TestOrg.member()` in ./api.ts adds them.
 */

// Presented bodies are read freely by the tests, as TestResponse.body is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Presented = any;
type Body = Record<string, unknown>;
/** A resource given by id or as presented. */
type Ref = string | { id: string };

const idOf = (ref: Ref) => (typeof ref === 'string' ? ref : ref.id);

/** The API path of a presented resource (its `urls.location` without the service's base). */
export function pathOf(api: TestApi, resource: { urls: { location: string } }): string {
  const base = `${api.url}/v1`;
  const location = resource.urls.location;
  if (!location.startsWith(base)) throw new Error(`${location} is not a location of ${base}`);
  return location.slice(base.length);
}

async function sent(api: TestApi, method: string, path: string, token: string, body: Body, status = 201): Promise<Presented> {
  const res = await api.request(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** A space titled 'Docs' unless overridden. */
export function createSpace(api: TestApi, org: TestOrg, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/spaces`, token, { title: 'Docs', ...overrides });
}

/** A collection; the body is `overrides` alone (the API's defaults apply). */
export function createCollection(api: TestApi, org: TestOrg, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/collections`, token, { ...overrides });
}

/** A change request in the space, with subject 'Change' unless overridden. */
export function createChangeRequest(api: TestApi, org: TestOrg, space: Ref, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/spaces/${idOf(space)}/change-requests`, token, { subject: 'Change', ...overrides });
}

/** Applies content changes (insert_page, update_page, ...) to a change request; returns the edit's answer. */
export function editChangeRequest(api: TestApi, org: TestOrg, space: Ref, changeRequest: Ref, changes: unknown[], token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/spaces/${idOf(space)}/change-requests/${idOf(changeRequest)}/content`, token, { changes }, 200);
}

/** Merges a change request into the space's primary content; returns `{revision, result}`. */
export function mergeChangeRequest(api: TestApi, org: TestOrg, space: Ref, changeRequest: Ref, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/spaces/${idOf(space)}/change-requests/${idOf(changeRequest)}/merge`, token, {}, 200);
}

/**
 * A page titled 'Page' (markdown 'Text') in the change request's content, or, without a change
 * request, in the space's primary content (through a change request merged at once). Returns the
 * page as `GET .../content/page/{pageId}` presents it (its document included).
 */
export async function createPage(
  api: TestApi, org: TestOrg, space: Ref, overrides: { title?: string; markdown?: string; changeRequest?: Ref } = {}, token = org.admin.token,
): Promise<Presented> {
  const title = overrides.title ?? `Page ${randomId(6)}`;
  const cr = overrides.changeRequest ?? await createChangeRequest(api, org, space, { subject: `Add ${title}` }, token);
  await editChangeRequest(api, org, space, cr, [{ operation: 'insert_page', title, document: { markdown: overrides.markdown ?? 'Text\n' } }], token);
  if (!overrides.changeRequest) await mergeChangeRequest(api, org, space, cr, token);
  const base = overrides.changeRequest ? `/spaces/${idOf(space)}/change-requests/${idOf(cr)}/content` : `/spaces/${idOf(space)}/content`;
  const pages = (await api.request('GET', `${base}/pages`, { token })).body.pages as { id: string; title: string }[];
  const page = pages.find((p) => p.title === title);
  expect(page, `page ${title} in ${base}`).toBeDefined();
  const res = await api.request('GET', `${base}/page/${page!.id}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/**
 * A comment (posting answers 200) on the space, or inside a change request with
 * `changeRequest`; its body is 'Looks good' unless overridden.
 */
export function createComment(api: TestApi, org: TestOrg, space: Ref, overrides: Body & { changeRequest?: Ref } = {}, token = org.admin.token): Promise<Presented> {
  const { changeRequest, ...body } = overrides;
  const scope = changeRequest ? `/spaces/${idOf(space)}/change-requests/${idOf(changeRequest)}` : `/spaces/${idOf(space)}`;
  return sent(api, 'POST', `${scope}/comments`, token, { body: { markdown: 'Looks good' }, ...body }, 200);
}

/** A reply (posting answers 200) to a presented comment, of either scope; its body is 'Agreed' unless overridden. */
export function createReply(api: TestApi, org: TestOrg, comment: { urls: { location: string } }, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `${pathOf(api, comment)}/replies`, token, { body: { markdown: 'Agreed' }, ...overrides }, 200);
}

/** A team titled 'Team' unless overridden (the interface creates teams with PUT). */
export function createTeam(api: TestApi, org: TestOrg, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'PUT', `/orgs/${org.id}/teams`, token, { title: 'Team', ...overrides });
}

/** A site; the body is `overrides` alone (the API's defaults apply). */
export function createSite(api: TestApi, org: TestOrg, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/sites`, token, { ...overrides });
}

/** A site space showing `space` on the site (in its default section, if any). */
export function createSiteSpace(api: TestApi, org: TestOrg, site: Ref, space: Ref, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/sites/${idOf(site)}/site-spaces`, token, { spaceId: idOf(space), ...overrides });
}

/** A site section starting with `space`. */
export function createSiteSection(api: TestApi, org: TestOrg, site: Ref, space: Ref, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/sites/${idOf(site)}/sections`, token, { spaceId: idOf(space), ...overrides });
}

/** A share link of the site, named 'Link' unless overridden. */
export function createShareLink(api: TestApi, org: TestOrg, site: Ref, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/sites/${idOf(site)}/share-links`, token, { name: 'Link', ...overrides });
}

/** An OpenAPI spec (pending until the jobs queue processed it) read from `source`, e.g. `{ url }`. */
export function createOpenAPISpec(api: TestApi, org: TestOrg, slug: string, source: unknown, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/openapi`, token, { slug, source });
}

/** A translation of `space` from English into French unless overridden (pending until the translations queue ran it). */
export function createTranslation(api: TestApi, org: TestOrg, space: Ref, overrides: Body = {}, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/orgs/${org.id}/translations`, token, { source: { space: idOf(space), language: 'en' }, language: 'fr', ...overrides });
}

/** An installation of a published integration in `org` (the caller must administer `org`). */
export function createInstallation(api: TestApi, org: TestOrg, integrationName: string, token = org.admin.token): Promise<Presented> {
  return sent(api, 'POST', `/integrations/${integrationName}/installations`, token, { organization: org.id });
}
