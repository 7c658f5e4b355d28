import { describe, expect, it } from 'vitest';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
// Type-only, by path: see test/organizations.test.ts.
import type { Api, ChangeRequest, ChangeRequestContentUpdate, SiteVisibility } from '../node_modules/@gitbook/api/dist/client.d.ts';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { contractViolations } from './support/contract.ts';
import { getRecord } from '../shared/db/operations.ts';
import { siteEntity } from '../shared/db/entities/site.ts';

/**
 * A new user's workflow through the official client (`GitBookAPI` of @gitbook/api): from the
 * organization to a published, searchable, shared site. Every answer the client receives is
 * also checked against the public description it ships, as every HTTP test's answers are
 * (test/support/contract.ts, with its spec-wins exceptions).
 */
const api = useTestApi();

/** Answers the client received that the public description does not document. */
const violations: string[] = [];

/** The official client on the test API; its requests go through `fetch`, checked on the way back. */
function officialClient(token: string) {
  const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const text = await res.clone().text();
    const body = text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
    violations.push(...contractViolations(init?.method ?? 'GET', url.pathname.replace(/^\/v1/, ''), res.status, body));
    return res;
  };
  // `endpoint` is the service's base URL: the client appends /v1 itself.
  return new GitBookAPI({ authToken: token, endpoint: api.url, serviceBinding: { fetch: checkedFetch } }) as unknown as Api<{ authToken?: string }>;
}

/** A space with a merged change request holding two pages, built through the client. */
async function writeSpace(client: ReturnType<typeof officialClient>, org: TestOrg) {
  const space = (await client.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  expect(space).toMatchObject({ object: 'space', id: expect.any(String), title: 'Handbook', organization: org.id });

  const cr = (await client.spaces.createChangeRequest(space.id, { subject: 'First pages' })).data;
  expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'draft', subject: 'First pages', space: space.id });

  // compat=true (the default): the updated change request.
  const compat = await client.spaces.updateChangeRequestContent(space.id, cr.id, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nInstall the flux capacitor first.\n' } }],
  });
  const updated = compat.data as ChangeRequest;
  expect(updated).toMatchObject({ object: 'change-request', id: cr.id, space: space.id });
  expect(updated.revision).not.toBe(cr.revision);

  // compat=false: the change request and each affected page with its address.
  const detailed = await client.spaces.updateChangeRequestContent(space.id, cr.id, {
    changes: [{ operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions and answers.\n' } }],
  }, { compat: false });
  const { changeRequest, changes } = detailed.data as ChangeRequestContentUpdate;
  expect(changeRequest).toMatchObject({ object: 'change-request', id: cr.id });
  expect(changeRequest.revision).not.toBe(updated.revision);
  expect(changes).toEqual([{ object: 'created_page', ref: 'faq', page: { object: 'page', id: expect.any(String), urls: { location: expect.any(String) } } }]);

  const merged = (await client.spaces.mergeChangeRequest(space.id, cr.id)).data;
  expect(merged).toMatchObject({ result: 'merge', revision: expect.any(String) });
  const after = (await client.spaces.getSpaceById(space.id)).data;
  expect(after.revision).toBe(merged.revision);

  const guide = (await client.spaces.getPageByPath(space.id, 'guide', { format: 'markdown' })).data;
  expect(guide).toMatchObject({ object: 'page', title: 'Guide', path: 'guide' });
  expect('markdown' in guide && guide.markdown).toContain('flux capacitor');
  const search = (await client.spaces.searchSpaceContent(space.id, { query: 'capacitor' })).data;
  expect(search.items.map((i) => i.title)).toEqual(['Guide']);
  return space;
}

describe('the official client (@gitbook/api) end to end', () => {
  it('writes, merges, publishes, searches and shares a site', async () => {
    const org = await newOrg('Client Workflow');
    const client = officialClient(org.admin.token);

    const orgs = (await client.orgs.listOrganizationsForAuthenticatedUser()).data;
    expect(orgs.items.map((o) => o.id)).toEqual([org.id]);
    const space = await writeSpace(client, org);

    // A site showing the space.
    const site = (await client.orgs.createSite(org.id, { title: 'Handbook site', visibility: 'share-link' as SiteVisibility })).data;
    expect(site).toMatchObject({ object: 'site', title: 'Handbook site', visibility: 'share-link', published: false, defaultLevel: 'inherit', siteSpaces: 0 });
    const siteSpace = (await client.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id })).data;
    expect(siteSpace).toMatchObject({ object: 'site-space', default: true, space: { id: space.id }, title: 'Handbook' });
    const siteSpaces = (await client.orgs.listSiteSpaces(org.id, site.id)).data;
    expect(siteSpaces.items.map((s) => s.id)).toEqual([siteSpace.id]);

    // Publish: published with its URL, searchable.
    const published = (await client.orgs.publishSite(org.id, site.id)).data;
    expect(published).toMatchObject({ object: 'site', id: site.id, published: true, urls: { published: expect.any(String) } });
    const profile = (await client.orgs.getPublishedContentSite(org.id, site.id)).data;
    expect(profile.structure).toMatchObject({ type: 'siteSpaces', structure: [{ id: siteSpace.id }] });
    const found = (await client.orgs.searchSiteContent(org.id, site.id, { query: 'capacitor', scope: { mode: 'all' } })).data;
    expect(found.items.map((i) => i.id)).toEqual([space.id]);

    // Share links: created active with a secret URL, renamed, deactivated, deleted.
    const link = (await client.orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' })).data;
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true, urls: { published: expect.stringContaining('?share=') } });
    const off = (await client.orgs.updateSiteShareLinkById(org.id, site.id, link.id, { active: false, name: 'Old partners' })).data;
    expect(off).toMatchObject({ id: link.id, active: false, name: 'Old partners' });
    expect((await client.orgs.listSiteShareLinks(org.id, site.id)).data.items.map((l) => [l.id, l.active])).toEqual([[link.id, false]]);
    expect((await client.orgs.deleteSiteShareLinkById(org.id, site.id, link.id)).status).toBe(204);
    expect((await client.orgs.listSiteShareLinks(org.id, site.id)).data.items).toEqual([]);

    // Unpublish: the site stays, unpublished, without a published URL.
    const unpublished = (await client.orgs.unpublishSite(org.id, site.id)).data;
    expect(unpublished).toMatchObject({ object: 'site', id: site.id, published: false });
    expect(unpublished.urls.published).toBeUndefined();
    expect(siteEntity.fromRecord((await getRecord(siteEntity.key({ siteId: site.id })))!).published).toBe(false);

    // Errors arrive as the client's typed error with the service's message.
    const missing = await client.orgs.getSiteById(org.id, 'missing').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);

    expect(violations).toEqual([]);
  });
});
