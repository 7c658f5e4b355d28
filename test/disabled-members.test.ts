import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg, type TestUser } from './support/api.ts';
import { createSite, createSpace } from './support/factories.ts';
import { operations, type Operation } from '../functions/catalogue.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { run } from '../shared/db/writes.ts';

/**
 * One membership rule (shared/policies/access.ts, assertMember): a disabled member gets the
 * 404 a non-member gets from every organization route, reads and writes alike, before any
 * sub-resource is looked at (docs/permissions.md). Every operation under
 * /orgs/{organizationId} is in the table below, with a request that passes validation, so
 * the answer comes from the membership rule (its message names the organization).
 */

const api = useTestApi();

const certificate = readFileSync(new URL('./fixtures/idp-certificate.pem', import.meta.url), 'utf8');
const doc = { object: 'document', data: {}, nodes: [] };

interface Fixture {
  org: TestOrg;
  disabled: TestUser;
  spaceId: string;
  siteId: string;
  /** The site's customization as GET presents it, less `object`: a valid PUT body. */
  customization: Record<string, unknown>;
}

type Request = { params?: Record<string, string>; body?: unknown; query?: Record<string, string> };

/** A valid request per operation; path parameters default to existing or made-up ids. */
const requests: Record<string, (f: Fixture) => Request> = {
  listCollectionsInOrganizationById: () => ({}),
  createCollection: () => ({ body: { title: 'Folder' } }),
  listSpacesInOrganizationById: () => ({}),
  createSpace: () => ({ body: { title: 'Docs' } }),
  listChangeRequestsForOrganization: () => ({}),
  listOpenAPISpecs: () => ({}),
  createOpenAPISpec: () => ({ body: { slug: 'petstore', source: { url: 'https://example.com/openapi.json' } } }),
  getOpenAPISpecBySlug: () => ({}),
  createOrUpdateOpenAPISpecBySlug: () => ({ body: { source: { url: 'https://example.com/openapi.json' } } }),
  deleteOpenAPISpecBySlug: () => ({}),
  updateOpenAPISpecBySlug: () => ({ body: { visibility: 'public' } }),
  listOpenAPISpecVersions: () => ({}),
  getLatestOpenAPISpecVersion: () => ({}),
  getLatestOpenAPISpecVersionContent: () => ({}),
  getLatestOpenAPISpecVersionContentRaw: () => ({}),
  getOpenAPISpecVersionById: () => ({}),
  getOpenAPISpecVersionContentById: () => ({}),
  listSites: () => ({}),
  createSite: () => ({ body: { title: 'Site' } }),
  getSiteById: () => ({}),
  deleteSiteById: () => ({}),
  updateSiteById: () => ({ body: { title: 'Renamed' } }),
  getSiteAdaptiveSchema: () => ({}),
  updateSiteAdaptiveSchema: () => ({ body: { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } } }),
  listSiteAdaptiveTemplateConditions: () => ({}),
  getPublishedContentSite: () => ({}),
  publishSite: () => ({}),
  unpublishSite: () => ({}),
  searchSiteContent: () => ({ body: { query: 'install' } }),
  listSiteSpaces: () => ({}),
  addSpaceToSite: (f) => ({ body: { spaceId: f.spaceId } }),
  deleteSiteSpaceById: () => ({}),
  updateSiteSpaceById: () => ({ body: { path: 'guide' } }),
  moveSiteSpace: () => ({ body: { position: { after: { type: 'site-space', siteSpace: 'other' } } } }),
  listSiteSections: () => ({}),
  addSectionToSite: (f) => ({ body: { spaceId: f.spaceId } }),
  deleteSiteSectionById: () => ({}),
  updateSiteSectionById: () => ({ body: { title: 'Guides' } }),
  moveSiteSection: () => ({ body: { position: { after: { type: 'site-section', siteSection: 'other' } } } }),
  listSiteSectionGroups: () => ({}),
  addSectionGroupToSite: () => ({ body: { title: 'Group' } }),
  deleteSiteSectionGroupById: () => ({}),
  updateSiteSectionGroupById: () => ({ body: { title: 'Group' } }),
  addSectionToSiteSectionGroup: () => ({ body: { sectionId: 'section1' } }),
  removeSectionFromSiteSectionGroup: () => ({}),
  listSiteShareLinks: () => ({}),
  createSiteShareLink: () => ({ body: { name: 'Partners' } }),
  deleteSiteShareLinkById: () => ({}),
  updateSiteShareLinkById: () => ({ body: { name: 'Partners' } }),
  getSiteCustomizationById: () => ({}),
  updateSiteCustomizationById: (f) => ({ body: f.customization }),
  getSiteSpaceCustomizationById: () => ({}),
  overrideSiteSpaceCustomizationById: (f) => ({ body: { trademark: f.customization.trademark } }),
  deleteSiteSpaceCustomizationById: () => ({}),
  getOrganizationById: () => ({}),
  updateOrganizationById: () => ({ body: { title: 'Renamed' } }),
  deleteOrganizationInviteById: () => ({}),
  searchOrganizationContent: () => ({ query: { query: 'install' } }),
  getOrganizationAgentInstructions: () => ({}),
  updateOrganizationAgentInstructions: () => ({ body: { instructions: doc } }),
  listMembersInOrganizationById: () => ({}),
  getMemberInOrganizationById: (f) => ({ params: { userId: f.disabled.user.id } }),
  removeMemberFromOrganizationById: (f) => ({ params: { userId: f.disabled.user.id } }),
  updateMemberInOrganizationById: (f) => ({ params: { userId: f.org.admin.user.id }, body: { role: 'read' } }),
  updateOrganizationMemberLastSeenAt: () => ({}),
  setUserAsSSOMemberForOrganization: (f) => ({ params: { userId: f.disabled.user.id } }),
  listSpacesForOrganizationMember: (f) => ({ params: { userId: f.disabled.user.id } }),
  listTeamsForOrganizationMember: (f) => ({ params: { userId: f.disabled.user.id } }),
  listTeamsInOrganizationById: () => ({}),
  createOrganizationTeam: () => ({ body: { title: 'Writers' } }),
  getTeamInOrganizationById: () => ({}),
  removeTeamFromOrganizationById: () => ({}),
  updateTeamInOrganizationById: () => ({ body: { title: 'Writers' } }),
  listSAMLProvidersInOrganizationById: () => ({}),
  createOrganizationSAMLProvider: () => ({
    body: { label: 'Okta', entityID: 'http://www.okta.com/exk1', certificate, ssoURL: 'https://acme.okta.com/app/sso/saml' },
  }),
  getOrganizationSAMLProviderById: () => ({}),
  deleteOrganizationSAMLProvider: () => ({}),
  updateOrganizationSAMLProvider: () => ({ body: { label: 'Okta' } }),
  listTranslations: () => ({}),
  createTranslation: (f) => ({ body: { source: { space: f.spaceId, language: 'en' }, language: 'fr' } }),
  getTranslation: () => ({}),
  updateTranslation: () => ({ body: { instructions: doc } }),
  deleteTranslation: () => ({}),
  runTranslation: () => ({}),
  listConversationsIssuesClusters: () => ({}),
  listConversations: () => ({}),
  ingestConversation: () => ({ body: { id: 'conv-1', parts: [{ type: 'message', role: 'user', body: 'Webhooks fail' }] } }),
  listConversationsIssues: () => ({}),
  getConversationsIssueById: () => ({}),
  getConversationById: () => ({}),
};

/**
 * Organization routes that are not membership routes, with what they answer a disabled
 * member instead: joining is for non-members (a disabled member is refused, 403, rather
 * than let back in), and the SSO login options are for anyone who wants to sign in.
 */
const notMembershipRoutes: Record<string, number> = {
  joinOrganization: 403,
  listSSOProviderLoginsInOrganization: 200,
};

const organizationRoutes = operations.filter((op) => op.path.startsWith('/orgs/{organizationId}'));

function pathOf(op: Operation, f: Fixture, params: Record<string, string> = {}): string {
  return op.path.replace(/\{([A-Za-z0-9_]+)\+?\}/g, (_, name: string) => {
    if (params[name]) return encodeURIComponent(params[name]);
    if (name === 'organizationId') return f.org.id;
    if (name === 'siteId') return f.siteId;
    if (name === 'specSlug') return 'petstore';
    return `missing-${name}`;
  });
}

async function send(op: Operation, f: Fixture, token: string) {
  const request: Request = (requests[op.operationId] ?? (() => ({})))(f);
  return api.request(op.method, pathOf(op, f, request.params), { token, body: request.body, query: request.query });
}

describe('disabled members', () => {
  let f: Fixture;

  beforeAll(async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const site = await createSite(api, org);
    const customization = await api.request('GET', `/orgs/${org.id}/sites/${site.id}/customization`, { token: org.admin.token });
    expect(customization.status).toBe(200);
    const disabled = await org.member('admin', 'Disabled admin');
    // Enabled, the member reaches the organization and its spaces like any admin.
    expect((await api.request('GET', `/orgs/${org.id}`, { token: disabled.token })).status).toBe(200);
    expect((await api.request('GET', `/orgs/${org.id}/spaces`, { token: disabled.token })).body.items).toHaveLength(1);
    await run(memberEntity.update({ orgId: org.id, userId: disabled.user.id }, { set: { disabled: true } }));
    const { object: _object, ...body } = customization.body;
    f = { org, disabled, spaceId: space.id, siteId: site.id, customization: body };
  });

  it('the table covers every organization route', () => {
    const covered = new Set([...Object.keys(requests), ...Object.keys(notMembershipRoutes)]);
    expect(organizationRoutes.map((op) => op.operationId).filter((id) => !covered.has(id))).toEqual([]);
    const declared = new Set(organizationRoutes.map((op) => op.operationId));
    expect([...covered].filter((id) => !declared.has(id))).toEqual([]);
  });

  for (const op of organizationRoutes.filter((o) => !(o.operationId in notMembershipRoutes))) {
    it(`${op.method} ${op.path} (${op.operationId}) answers 404`, async () => {
      const res = await send(op, f, f.disabled.token);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: 404, message: `No organization found with id ${f.org.id}` } },
      });
    });
  }

  for (const [operationId, status] of Object.entries(notMembershipRoutes)) {
    it(`${operationId} is not a membership route: ${status}`, async () => {
      const op = organizationRoutes.find((o) => o.operationId === operationId)!;
      expect((await send(op, f, f.disabled.token)).status).toBe(status);
    });
  }

  it('changed nothing: the organization still has its one space and site, no collection, team or translation', async () => {
    const token = f.org.admin.token;
    const count = async (path: string) => (await api.request('GET', `/orgs/${f.org.id}${path}`, { token })).body.items.length;
    expect(await count('/spaces')).toBe(1);
    expect(await count('/sites')).toBe(1);
    expect(await count('/collections')).toBe(0);
    expect(await count('/teams')).toBe(0);
    expect(await count('/translations')).toBe(0);
    const member = await api.request('GET', `/orgs/${f.org.id}/members/${f.disabled.user.id}`, { token });
    expect(member.body).toMatchObject({ role: 'admin', disabled: true });
  });
});
