import { describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { GitBookAPIError } from '@gitbook/api';
// The package's index.d.ts re-exports './client' without an extension, which NodeNext
// resolution does not follow (and the exports map hides dist/): the typed surface is
import { officialClient } from './support/official-client.ts';
import { useTestApi, newOrg, newUser, type TestOrg, type TestUser } from './support/api.ts';
import { createSite } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { db } from '../shared/db/client.ts';
import { config } from '../shared/config.ts';
import { randomId } from '../shared/ids.ts';
import { addMember } from '../shared/commands/members/add.ts';
import { createAccessToken } from '../shared/commands/tokens/create.ts';
import { createUser } from '../shared/commands/users/create.ts';
import { organizationEntity } from '../shared/db/entities/organization.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { userEntity } from '../shared/db/entities/user.ts';
import { agentInstructionsEntity, emailDomainEntity, hostnameEntity, inviteEntity } from '../shared/db/entities/org-records.ts';
import { PK, SK } from '../shared/db/table.ts';
import { transact } from '../shared/db/writes.ts';

const api = useTestApi();

const storedOrg = (orgId: string) => getRecord(organizationEntity.key({ orgId }), true);
const storedDomain = (domain: string, orgId: string) => getRecord(emailDomainEntity.key({ domain, orgId }), true);
const uniqueDomain = (name = 'acme') => `${name}-${randomId(8).toLowerCase()}.com`;

async function userWithEmail(email: string, emailVerified = true): Promise<TestUser> {
  const user = await createUser({ displayName: `User ${randomId(6)}`, email, emailVerified });
  return { user, token: await createAccessToken(user.id, 'test') };
}

async function patchOrg(org: TestOrg, body: unknown, token = org.admin.token) {
  return api.request('PATCH', `/orgs/${org.id}`, { token, body });
}

async function disableMember(orgId: string, userId: string) {
  await db().send(new UpdateCommand({
    TableName: config.tableName,
    Key: memberEntity.key({ orgId, userId }),
    UpdateExpression: 'SET disabled = :t',
    ExpressionAttributeValues: { ':t': true },
  }));
}

const adminPermissions = {
  view: true, access: true, admin: true, ownTeam: true, createContent: true, createOpenAPISpec: true,
  ingestConversations: true, viewBilling: true, listMembers: true, listTeams: true, listIntegrations: true,
  listInstallations: true, installIntegration: true,
};
const readerPermissions = {
  view: true, access: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false,
  ingestConversations: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true,
  listInstallations: false, installIntegration: false,
};
const noPermissions = Object.fromEntries(Object.keys(adminPermissions).map((k) => [k, false]));
const price = { monthly: 0, yearly: 0 };
const billing = {
  interval: 'monthly', endDate: null, hasPaymentFailed: false, canCheckout: false, isScheduledToCancel: false,
  pricing: { members: { plus_2024: price, pro_2024: price }, sites: { premium: price, ultimate: price } },
  usageAddons: {}, canChangeInterval: false, canUseSAML: true, creditsBundle: null, aiCreditAlertThreshold: null,
};

/** The full Organization body of a fresh organization, as `newOrg` creates it. */
async function expectedOrganization(orgId: string, permissions: Record<string, boolean>) {
  const stored = (await storedOrg(orgId))!;
  return {
    object: 'organization',
    id: orgId,
    title: stored.title,
    createdAt: stored.createdAt,
    emailDomains: [],
    hostname: `${orgId.toLowerCase()}.${config.publishedDomain}`,
    type: 'business',
    defaultRole: null,
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: 'free',
    ...(permissions.view ? { billing } : {}),
    mergeRules: { type: 'none' },
    urls: { location: `${api.url}/v1/orgs/${orgId}`, app: `${config.appUrl}/o/${orgId}` },
    trial: { status: 'none', count: 0 },
    permissions,
  };
}

describe('GET /orgs', () => {
  it('lists the caller\'s organizations by joinedAt ascending, across pages, one BatchGet per page', async () => {
    const user = await newUser('Multi');
    const orgs = [await newOrg('First'), await newOrg('Second'), await newOrg('Third')];
    await addMember(orgs[0]!.id, user.user, 'read');
    await addMember(orgs[1]!.id, user.user, 'admin');
    await addMember(orgs[2]!.id, user.user, 'edit');

    const first = await api.request('GET', '/orgs', { token: user.token, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      items: [await expectedOrganization(orgs[0]!.id, readerPermissions), await expectedOrganization(orgs[1]!.id, adminPermissions)],
      count: 2,
      next: { page: expect.any(String) },
    });
    // Token + org prefetch batch, the index Query, the org BatchGet.
    expect(first.headers.get('x-db-round-trips')).toBe('3');
    const second = await api.request('GET', '/orgs', { token: user.token, query: { limit: 2, page: first.body.next.page } });
    expect(second.status).toBe(200);
    expect(second.body.next).toBeUndefined();
    expect(second.body.count).toBe(1);
    expect(second.body.items[0]).toMatchObject({ id: orgs[2]!.id, title: 'Third', permissions: { createContent: false, ingestConversations: true } });

    const all = await api.request('GET', '/orgs', { token: user.token });
    expect(all.body.items.map((o: { id: string }) => o.id)).toEqual(orgs.map((o) => o.id));
    expect(all.body.next).toBeUndefined();
  });

  it('leaves out disabled memberships; an organization-less user gets an empty list', async () => {
    const user = await newUser('Disabled');
    const a = await newOrg('Org A');
    const b = await newOrg('Org B');
    await addMember(a.id, user.user, 'read');
    await addMember(b.id, user.user, 'read');
    await disableMember(a.id, user.user.id);
    const res = await api.request('GET', '/orgs', { token: user.token });
    expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([b.id]);
    const lonely = await newUser('Lonely');
    expect((await api.request('GET', '/orgs', { token: lonely.token })).body).toEqual({ items: [], count: 0 });
  });

  it('400 on bad limit or page, 401 without a token', async () => {
    const org = await newOrg();
    for (const limit of ['0', '1001', 'abc']) {
      const res = await api.request('GET', '/orgs', { token: org.admin.token, query: { limit } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^limit: /);
    }
    const badPage = await api.request('GET', '/orgs', { token: org.admin.token, query: { page: 'garbage' } });
    expect(badPage.status).toBe(400);
    expect(badPage.body.error.message).toMatch(/^page: /);
    expect((await api.request('GET', '/orgs')).status).toBe(401);
  });
});

describe('GET /orgs/{organizationId}', () => {
  it('answers every field with permissions for the caller\'s role, and no storage attributes', async () => {
    const org = await newOrg('Acme');
    const res = await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await expectedOrganization(org.id, adminPermissions));
    // The organization's own type is stored as an item field beside the record's entityType.
    expect(await storedOrg(org.id)).toMatchObject({ entityType: 'organization', type: 'business' });
    const reader = await org.member('read');
    const asReader = await api.request('GET', `/orgs/${org.id}`, { token: reader.token });
    expect(asReader.body).toEqual(await expectedOrganization(org.id, readerPermissions));
    const guest = await org.member(null);
    const asGuest = await api.request('GET', `/orgs/${org.id}`, { token: guest.token });
    expect(asGuest.body.permissions).toMatchObject({ view: true, listMembers: false, listTeams: false, createContent: false });
  });

  it('permissions.createContent says what creating at the root allows: the org role raised by defaultRole, never for guests', async () => {
    const org = await newOrg();
    const [reader, guest] = [await org.member('read'), await org.member(null)];
    const attempt = async (token: string) => {
      const createContent = (await officialClient(api, token).orgs.getOrganizationById(org.id)).data.permissions.createContent;
      const space = await api.request('POST', `/orgs/${org.id}/spaces`, { token, body: { title: 'Root space' } });
      const collection = await api.request('POST', `/orgs/${org.id}/collections`, { token, body: { title: 'Root folder' } });
      return { createContent, space: space.status, collection: collection.status };
    };
    expect(await attempt(reader.token)).toEqual({ createContent: false, space: 403, collection: 403 });
    expect((await patchOrg(org, { defaultRole: 'create' })).status).toBe(200);
    expect(await attempt(reader.token)).toEqual({ createContent: true, space: 201, collection: 201 });
    // The list of the caller's organizations presents the same permissions.
    const listed = await api.request('GET', '/orgs', { token: reader.token });
    expect(listed.body.items.find((o: { id: string }) => o.id === org.id).permissions).toMatchObject({ createContent: true, createOpenAPISpec: false, admin: false });
    // defaultRole raises members' roles, not guests' (docs/permissions.md).
    expect(await attempt(guest.token)).toEqual({ createContent: false, space: 403, collection: 403 });
  });

  it('404 for non-members, disabled members and missing organizations; 401 without a token', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const outsider = await api.request('GET', `/orgs/${org.id}`, { token: other.admin.token });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ error: { code: 404, message: `No organization found with id ${org.id}` } });
    const missing = await api.request('GET', '/orgs/doesnotexist', { token: org.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No organization found with id doesnotexist');
    const member = await org.member('edit');
    await disableMember(org.id, member.user.id);
    expect((await api.request('GET', `/orgs/${org.id}`, { token: member.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}`)).status).toBe(401);
  });
});

describe('PATCH /orgs/{organizationId}', () => {
  it('updates every field, answers the organization and keeps the email-domain index', async () => {
    const org = await newOrg();
    const collection = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { title: 'Home' } });
    expect(collection.status).toBe(201);
    const [d1, d2] = [uniqueDomain(), uniqueDomain()];
    const body = {
      title: '  Acme Docs  ',
      emailDomains: [d1.toUpperCase(), d2, d1],
      hostname: 'Docs.Acme.Example',
      defaultRole: 'comment',
      defaultContent: { type: 'collection', collection: collection.body.id },
      logo: 'https://cdn.example.com/logo.png',
      sso: true,
      ai: false,
      inviteLinks: false,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [org.admin.user.id] }] },
    };
    const before = (await storedOrg(org.id))!;
    const res = await patchOrg(org, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...(await expectedOrganization(org.id, adminPermissions)),
      title: 'Acme Docs',
      emailDomains: [d1, d2],
      hostname: 'docs.acme.example',
      defaultRole: 'comment',
      defaultContent: { type: 'collection', collection: collection.body.id },
      sso: true,
      ai: false,
      inviteLinks: false,
      mergeRules: body.mergeRules,
      urls: { location: `${api.url}/v1/orgs/${org.id}`, app: `${config.appUrl}/o/${org.id}`, logo: body.logo },
    });
    const stored = (await storedOrg(org.id))!;
    expect(stored).toMatchObject({
      title: 'Acme Docs', emailDomains: [d1, d2], hostname: 'docs.acme.example', defaultRole: 'comment',
      logo: body.logo, sso: true, ai: false, inviteLinks: false, mergeRules: body.mergeRules, createdAt: before.createdAt,
    });
    expect((stored.updatedAt as string) > (before.updatedAt as string)).toBe(true);
    expect(await storedDomain(d1, org.id)).toMatchObject({ domain: d1, orgId: org.id });
    expect(await storedDomain(d2, org.id)).toMatchObject({ domain: d2, orgId: org.id });

    // Replacing the list moves the index; null clears defaultContent and logo; a site of the organization is accepted.
    const d3 = uniqueDomain();
    const again = await patchOrg(org, { emailDomains: [d2, d3], defaultContent: null, logo: null, defaultRole: null });
    expect(again.status).toBe(200);
    expect(again.body.emailDomains).toEqual([d2, d3]);
    expect(again.body.defaultRole).toBeNull();
    expect(again.body).not.toHaveProperty('defaultContent');
    expect(again.body.urls).not.toHaveProperty('logo');
    expect(await storedDomain(d1, org.id)).toBeUndefined();
    expect(await storedDomain(d2, org.id)).toBeDefined();
    expect(await storedDomain(d3, org.id)).toBeDefined();
    const cleared = (await storedOrg(org.id))!;
    expect(cleared).not.toHaveProperty('defaultContent');
    expect(cleared).not.toHaveProperty('logo');
    const ownSite = await createSite(api, org);
    const site = await patchOrg(org, { defaultContent: { type: 'site', site: ownSite.id }, mergeRules: { type: 'none' } });
    expect(site.status).toBe(200);
    expect(site.body.defaultContent).toEqual({ type: 'site', site: ownSite.id });
    expect((await storedOrg(org.id))!.defaultContent).toEqual({ type: 'site', site: ownSite.id });
    const none = await patchOrg(org, { emailDomains: [] });
    expect(none.body.emailDomains).toEqual([]);
    expect(await storedDomain(d2, org.id)).toBeUndefined();
    expect(await storedDomain(d3, org.id)).toBeUndefined();
  });

  it('400 on bad input, naming the field, and writes nothing', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const foreign = await api.request('POST', `/orgs/${other.id}/collections`, { token: other.admin.token, body: { title: 'Theirs' } });
    const foreignSite = await createSite(api, other);
    const before = await storedOrg(org.id);
    const cases: [unknown, RegExp][] = [
      [{}, /^body: must set at least one of/],
      [{ titel: 'typo' }, /^titel: is not an allowed field/],
      [{ title: '' }, /^title: must not be empty/],
      [{ title: 'x' }, /^title: must be at least 2 characters/],
      [{ title: 'x'.repeat(101) }, /^title: must be at most 100 characters/],
      [{ emailDomains: 'example.com' }, /^emailDomains: must be an array/],
      [{ emailDomains: [uniqueDomain(), 'not a domain'] }, /^emailDomains\.1: must be a valid domain name/],
      [{ emailDomains: ['localhost'] }, /^emailDomains\.0: /],
      [{ emailDomains: Array.from({ length: 41 }, (_, i) => `d${i}.example.com`) }, /^emailDomains: must hold at most 40/],
      [{ hostname: 'a b' }, /^hostname: /],
      [{ defaultRole: 'owner' }, /^defaultRole: must be one of/],
      [{ defaultContent: { type: 'site' } }, /^defaultContent\.site: /],
      [{ defaultContent: { type: 'page', page: 'x' } }, /^defaultContent\.type: must be/],
      [{ defaultContent: { type: 'space', space: 'nope' } }, /^defaultContent: invalid default content space nope/],
      [{ defaultContent: { type: 'collection', collection: foreign.body.id } }, /^defaultContent: invalid default content collection/],
      [{ defaultContent: { type: 'site', site: 'site_123' } }, /^defaultContent: invalid default content site site_123: no such site in this organization$/],
      [{ defaultContent: { type: 'site', site: foreignSite.id } }, /^defaultContent: invalid default content site /],
      [{ logo: 'not a url' }, /^logo: must be a URL/],
      [{ logo: 'ftp://example.com/logo.png' }, /^logo: must be an http or https URL/],
      [{ sso: 'yes' }, /^sso: must be a boolean/],
      [{ ai: 1 }, /^ai: must be a boolean/],
      [{ inviteLinks: null }, /^inviteLinks: must be a boolean/],
      [{ mergeRules: { type: 'some' } }, /^mergeRules\.type: /],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'unknown' }] } }, /^mergeRules\.rules\.0: /],
    ];
    for (const [body, message] of cases) {
      const res = await patchOrg(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const badJson = await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, rawBody: '{"title":' });
    expect(badJson.body.error.message).toBe('body: is not valid JSON');
    expect(await storedOrg(org.id)).toEqual(before);
  });

  it('admin only: 403 for other roles, 404 outside the organization, 401 without a token', async () => {
    const org = await newOrg();
    const before = await storedOrg(org.id);
    for (const role of ['read', 'create'] as const) {
      const member = await org.member(role);
      const res = await patchOrg(org, { title: 'Mine' }, member.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { code: 403, message: 'Updating an organization requires the admin role' } });
    }
    const other = await newOrg();
    expect((await patchOrg(org, { title: 'Mine' }, other.admin.token)).status).toBe(404);
    expect((await api.request('PATCH', `/orgs/${org.id}`, { body: { title: 'Mine' } })).status).toBe(401);
    expect(await storedOrg(org.id)).toEqual(before);
  });

  it('concurrent PATCHes of emailDomains never leave the index out of step with the organization', async () => {
    const org = await newOrg();
    const all = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const a = [uniqueDomain('a'), uniqueDomain('a')];
      const b = [uniqueDomain('b'), uniqueDomain('b')];
      for (const d of [...a, ...b]) all.add(d);
      const results = await Promise.all([patchOrg(org, { emailDomains: a }), patchOrg(org, { emailDomains: b })]);
      for (const r of results) expect([200, 409]).toContain(r.status);
      expect(results.some((r) => r.status === 200)).toBe(true);
      const stored = (await storedOrg(org.id))!;
      const winners = results.filter((r) => r.status === 200).map((r) => r.body.emailDomains);
      if (winners.length === 1) expect(stored.emailDomains).toEqual(winners[0]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe(409);
      const indexed = [];
      for (const d of all) if (await storedDomain(d, org.id)) indexed.push(d);
      expect(indexed.sort()).toEqual([...(stored.emailDomains as string[])].sort());
    }
  });
});

describe('PATCH /orgs/{organizationId}: a host name is one organization\'s', () => {
  const claim = async (hostname: string) => (await getRecord(hostnameEntity.key({ hostname })))?.orgId;
  const hostnameOf = async (orgId: string) => (await storedOrg(orgId))!.hostname;

  it('another organization\'s name is 409 and changes nothing; once released, it can be taken', async () => {
    const [first, second] = [await newOrg(), await newOrg()];
    const name = `docs.${uniqueDomain()}`;
    expect((await patchOrg(first, { hostname: name.toUpperCase() })).status).toBe(200);
    expect(await claim(name)).toBe(first.id);
    const taken = await patchOrg(second, { hostname: name, title: 'Second Docs' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: { code: 409, message: `hostname: ${name} is already used by another organization` } });
    expect(await hostnameOf(second.id)).toBe(`${second.id.toLowerCase()}.${config.publishedDomain}`);
    expect((await storedOrg(second.id))!.title).not.toBe('Second Docs');
    // Setting it again is no change for its holder.
    expect((await patchOrg(first, { hostname: name })).status).toBe(200);

    const next = `help.${uniqueDomain()}`;
    expect((await patchOrg(first, { hostname: next })).status).toBe(200);
    expect(await claim(name)).toBeUndefined();
    expect(await claim(next)).toBe(first.id);
    expect((await patchOrg(second, { hostname: name })).status).toBe(200);
    expect(await claim(name)).toBe(second.id);
    // Back to its own default name: the custom one is released, the default needs no claim.
    const own = `${second.id.toLowerCase()}.${config.publishedDomain}`;
    expect((await patchOrg(second, { hostname: own })).status).toBe(200);
    expect(await claim(name)).toBeUndefined();
    expect(await claim(own)).toBeUndefined();
    expect(await hostnameOf(second.id)).toBe(own);
  });

  it('under the published domain only the organization\'s own default name: another\'s is 400', async () => {
    const [first, second] = [await newOrg(), await newOrg()];
    for (const hostname of [`${first.id.toLowerCase()}.${config.publishedDomain}`, `made-up.${config.publishedDomain}`, config.publishedDomain]) {
      const res = await patchOrg(second, { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error.message).toBe(`hostname: under ${config.publishedDomain} an organization has only its own ${second.id.toLowerCase()}.${config.publishedDomain}`);
    }
    expect(await hostnameOf(second.id)).toBe(`${second.id.toLowerCase()}.${config.publishedDomain}`);
  });

  it('two organizations setting one new name at once: one gets it, the other 409', async () => {
    const orgs = [await newOrg(), await newOrg(), await newOrg()];
    const name = `race.${uniqueDomain()}`;
    const results = await Promise.all(orgs.map((org) => patchOrg(org, { hostname: name })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = orgs[results.findIndex((r) => r.status === 200)]!;
    expect(await claim(name)).toBe(winner.id);
    const holders = await Promise.all(orgs.map((org) => hostnameOf(org.id)));
    expect(holders.filter((h) => h === name)).toHaveLength(1);
  });
});

describe('PATCH /orgs/{organizationId}: admins changing different settings at once', () => {
  it('every PATCH answers 200 and every change is stored (none lost to a 409)', async () => {
    const org = await newOrg();
    const other = await org.member('admin');
    const domain = uniqueDomain();
    const [first, second] = [officialClient(api, org.admin.token), officialClient(api, other.token)];
    const results = await Promise.all([
      first.orgs.updateOrganizationById(org.id, { ai: false }),
      second.orgs.updateOrganizationById(org.id, { inviteLinks: false }),
      patchOrg(org, { defaultRole: 'comment' }), // the client types roles as its own enum
      second.orgs.updateOrganizationById(org.id, { title: 'Settings Race' }),
      first.orgs.updateOrganizationById(org.id, { hostname: `race-${org.id.toLowerCase()}.example.com` }),
      second.orgs.updateOrganizationById(org.id, { emailDomains: [domain] }),
    ]);
    for (const r of results) expect(r.status).toBe(200);
    const expected = {
      ai: false, inviteLinks: false, defaultRole: 'comment', title: 'Settings Race',
      hostname: `race-${org.id.toLowerCase()}.example.com`, emailDomains: [domain],
    };
    expect(await storedOrg(org.id)).toMatchObject(expected);
    expect((await first.orgs.getOrganizationById(org.id)).data).toMatchObject(expected);
    expect(await storedDomain(domain, org.id)).toMatchObject({ domain, orgId: org.id });
  });
});

describe('DELETE /orgs/{organizationId}/link-invites/{inviteId}', () => {
  it('deletes the invite (204) and answers 204 when it does not exist', async () => {
    const org = await newOrg();
    const key = inviteEntity.key({ orgId: org.id, inviteId: 'inv1' });
    await db().send(new PutCommand({
      TableName: config.tableName,
      Item: inviteEntity.toRecord({ orgId: org.id, inviteId: 'inv1' }, { id: 'inv1', orgId: org.id, role: 'read', createdAt: new Date().toISOString() }),
    }));
    const reader = await org.member('read');
    const forbidden = await api.request('DELETE', `/orgs/${org.id}/link-invites/inv1`, { token: reader.token });
    expect(forbidden.status).toBe(403);
    const other = await newOrg();
    expect((await api.request('DELETE', `/orgs/${org.id}/link-invites/inv1`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `/orgs/${org.id}/link-invites/inv1`)).status).toBe(401);
    expect(await getRecord(key, true)).toBeDefined();
    const res = await api.request('DELETE', `/orgs/${org.id}/link-invites/inv1`, { token: org.admin.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await getRecord(key, true)).toBeUndefined();
    expect((await api.request('DELETE', `/orgs/${org.id}/link-invites/inv1`, { token: org.admin.token })).status).toBe(204);
  });
});

describe('public email providers\' domains', () => {
  it('cannot be claimed: 400 naming the domain, nothing stored', async () => {
    const org = await newOrg();
    const mine = uniqueDomain();
    expect((await patchOrg(org, { emailDomains: [mine] })).status).toBe(200);
    for (const domain of ['gmail.com', 'OUTLOOK.COM', 'qq.com']) {
      const res = await patchOrg(org, { emailDomains: [mine, domain] });
      expect(res.status, domain).toBe(400);
      expect(res.body.error.message).toBe(`emailDomains.1: ${domain.toLowerCase()} is a public email provider's domain: anyone can have an address there`);
      expect(await storedDomain(domain.toLowerCase(), org.id)).toBeUndefined();
    }
    expect((await storedOrg(org.id))!.emailDomains).toEqual([mine]);
  });

  it('claimed before they were refused, offer and open nothing to the provider\'s users', async () => {
    const org = await newOrg();
    // A claim stored by an earlier version, as its PATCH wrote it.
    await transact([
      organizationEntity.update({ orgId: org.id }, { set: { emailDomains: ['gmail.com'] } }),
      emailDomainEntity.put({ domain: 'gmail.com', orgId: org.id }, { domain: 'gmail.com', orgId: org.id }),
    ]);
    const stranger = await userWithEmail(`someone-${randomId(8).toLowerCase()}@gmail.com`);
    const offered = await api.request('GET', '/email-domains/gmail.com/orgs', { token: stranger.token });
    expect(offered.status).toBe(200);
    expect(offered.body).toEqual({ organizations: [] });
    const join = await api.request('POST', `/orgs/${org.id}/join`, { token: stranger.token });
    expect(join.status).toBe(400);
    expect(join.body.error.message).toBe("The user's email domain is not valid");
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: stranger.user.id }), true)).toBeUndefined();
  });
});

describe('POST /orgs/{organizationId}/join', () => {
  it('joins with a verified email in an allowed domain, as read by default (204), idempotently', async () => {
    const org = await newOrg();
    const domain = uniqueDomain();
    expect((await patchOrg(org, { emailDomains: [domain] })).status).toBe(200);
    const joiner = await userWithEmail(`jane@${domain.toUpperCase()}`);
    const res = await api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const member = await getRecord(memberEntity.key({ orgId: org.id, userId: joiner.user.id }), true);
    expect(member).toMatchObject({ orgId: org.id, userId: joiner.user.id, role: 'read', disabled: false, sso: false, teams: 0 });
    const got = await api.request('GET', `/orgs/${org.id}`, { token: joiner.token });
    expect(got.body.permissions).toEqual(readerPermissions);
    const again = await api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token });
    expect(again.status).toBe(204);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: joiner.user.id }), true)).toEqual(member);
    // Members join idempotently even without a matching domain.
    expect((await api.request('POST', `/orgs/${org.id}/join`, { token: org.admin.token })).status).toBe(204);
  });

  it('gives the organization\'s defaultRole when it has one', async () => {
    const org = await newOrg();
    const domain = uniqueDomain();
    await patchOrg(org, { emailDomains: [domain], defaultRole: 'edit' });
    const joiner = await userWithEmail(`joe@${domain}`);
    expect((await api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token })).status).toBe(204);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: joiner.user.id }), true)).toMatchObject({ role: 'edit' });
  });

  it('400 for unverified emails and other domains, 404 without the organization, 403 when disabled, 401', async () => {
    const org = await newOrg();
    const domain = uniqueDomain();
    await patchOrg(org, { emailDomains: [domain] });
    const unverified = await userWithEmail(`un@${domain}`, false);
    const elsewhere = await userWithEmail(`x@${uniqueDomain()}`);
    // A subdomain is a different domain.
    const subdomain = await userWithEmail(`y@eu.${domain}`);
    for (const u of [unverified, elsewhere, subdomain]) {
      const res = await api.request('POST', `/orgs/${org.id}/join`, { token: u.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message: "The user's email domain is not valid" } });
      expect(await getRecord(memberEntity.key({ orgId: org.id, userId: u.user.id }), true)).toBeUndefined();
    }
    const missing = await api.request('POST', '/orgs/nosuchorg/join', { token: elsewhere.token });
    expect(missing.status).toBe(404);
    const member = await userWithEmail(`m@${domain}`);
    await addMember(org.id, member.user, 'read');
    await disableMember(org.id, member.user.id);
    expect((await api.request('POST', `/orgs/${org.id}/join`, { token: member.token })).status).toBe(403);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: member.user.id }), true)).toMatchObject({ disabled: true });
    expect((await api.request('POST', `/orgs/${org.id}/join`)).status).toBe(401);
  });

  it('concurrent joins of the same user create one membership', async () => {
    const org = await newOrg();
    const domain = uniqueDomain();
    await patchOrg(org, { emailDomains: [domain] });
    const joiner = await userWithEmail(`race@${domain}`);
    const results = await Promise.all([1, 2, 3].map(() => api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token })));
    expect(results.map((r) => r.status)).toEqual([204, 204, 204]);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: joiner.user.id }), true)).toMatchObject({ role: 'read' });
  });
});

describe('GET /orgs/{organizationId}/search', () => {
  it('answers the empty list to members and validates the query', async () => {
    const org = await newOrg();
    const reader = await org.member('read');
    const res = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'install', limit: 10 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /^query: is required/],
      [{ query: '' }, /^query: is required/],
      [{ query: 'q'.repeat(513) }, /^query: must be at most 512 characters/],
      [{ query: 'ok', limit: '0' }, /^limit: /],
    ];
    for (const [query, message] of cases) {
      const bad = await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(message);
    }
    expect((await api.request('GET', `/orgs/${org.id}/search`, { token: reader.token, query: { query: 'q'.repeat(512) } })).status).toBe(200);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/search`, { token: other.admin.token, query: { query: 'x' } })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/search`, { query: { query: 'x' } })).status).toBe(401);
  });
});

describe('GET and PUT /orgs/{organizationId}/agent-instructions', () => {
  const doc = {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be concise.', marks: [] }] }] }],
  };

  it('starts as the empty document, then answers what an admin stored', async () => {
    const org = await newOrg();
    const reader = await org.member('read');
    const createdAt = (await storedOrg(org.id))!.createdAt;
    const location = `${api.url}/v1/orgs/${org.id}/agent-instructions`;
    const empty = await api.request('GET', `/orgs/${org.id}/agent-instructions`, { token: reader.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      object: 'agent-instructions',
      instructions: { object: 'document', data: { schemaVersion: 1 }, nodes: [] },
      updatedAt: createdAt,
      // The organization's creator: the public interface requires a user id.
      updatedBy: org.admin.user.id,
      urls: { location },
    });
    const put = await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { token: org.admin.token, body: { instructions: doc } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ object: 'agent-instructions', instructions: doc, updatedAt: expect.any(String), updatedBy: org.admin.user.id, urls: { location } });
    expect(await getRecord(agentInstructionsEntity.key({ orgId: org.id }), true)).toMatchObject({
      orgId: org.id, instructions: doc, updatedBy: org.admin.user.id, updatedAt: put.body.updatedAt,
    });
    const got = await api.request('GET', `/orgs/${org.id}/agent-instructions`, { token: reader.token });
    expect(got.body).toEqual(put.body);
    // `data` may be omitted: it is stored as {}.
    const noData = await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { token: org.admin.token, body: { instructions: { object: 'document', nodes: [] } } });
    expect(noData.body.instructions).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it('PUT: 400 naming the field without writing, 403 for non-admins, 404 outside, 401', async () => {
    const org = await newOrg();
    const key = agentInstructionsEntity.key({ orgId: org.id });
    const cases: [unknown, RegExp][] = [
      [{}, /^instructions: is required/],
      [{ instructions: 'text' }, /^instructions: must be a rich document/],
      [{ instructions: { object: 'block', nodes: [] } }, /^instructions\.object: must be "document"/],
      [{ instructions: { object: 'document', nodes: 'x' } }, /^instructions\.nodes: must be an array of blocks/],
      [{ instructions: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'x'.repeat(300_000) }] }] }] } }, /^instructions: must be at most 256 KB/],
      [{ instructions: doc, extra: true }, /^extra: is not an allowed field/],
    ];
    for (const [body, message] of cases) {
      const res = await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { token: org.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const editor = await org.member('edit');
    const forbidden = await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { token: editor.token, body: { instructions: doc } });
    expect(forbidden.status).toBe(403);
    const other = await newOrg();
    expect((await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { token: other.admin.token, body: { instructions: doc } })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/agent-instructions`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('PUT', `/orgs/${org.id}/agent-instructions`, { body: { instructions: doc } })).status).toBe(401);
    expect((await api.request('GET', `/orgs/${org.id}/agent-instructions`)).status).toBe(401);
    expect(await getRecord(key, true)).toBeUndefined();
  });
});

describe('GET /email-domains/{emailDomain}/orgs', () => {
  it('lists allowing organizations the caller belongs to, plus all of them when the caller\'s verified email is in the domain', async () => {
    const domain = uniqueDomain();
    const mine = await newOrg('Mine');
    const theirs = await newOrg('Theirs');
    const unrelated = await newOrg('Unrelated');
    await patchOrg(mine, { emailDomains: [domain] });
    await patchOrg(theirs, { emailDomains: [domain, uniqueDomain()] });
    await patchOrg(unrelated, { emailDomains: [uniqueDomain()] });

    // Outside the domain: only the organizations the caller is a member of.
    const outsider = await newUser('Outsider');
    await addMember(mine.id, outsider.user, 'read');
    const asOutsider = await api.request('GET', `/email-domains/${domain}/orgs`, { token: outsider.token });
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body).toEqual({
      organizations: [{ ...(await expectedOrganization(mine.id, readerPermissions)), emailDomains: [domain] }],
    });

    // Verified email in the domain: every allowing organization; non-members see no billing and no permissions.
    const insider = await userWithEmail(`in@${domain}`);
    const asInsider = await api.request('GET', `/email-domains/${domain.toUpperCase()}/orgs`, { token: insider.token });
    expect(asInsider.status).toBe(200);
    const byId = Object.fromEntries(asInsider.body.organizations.map((o: { id: string }) => [o.id, o]));
    expect(Object.keys(byId).sort()).toEqual([mine.id, theirs.id].sort());
    expect(byId[theirs.id]).toEqual({
      ...(await expectedOrganization(theirs.id, noPermissions)),
      emailDomains: (await storedOrg(theirs.id))!.emailDomains,
    });
    expect(byId[theirs.id]).not.toHaveProperty('billing');
    // Round trips: the token lookup, the domain Query, one BatchGet (user, organizations, memberships).
    expect(asInsider.headers.get('x-db-round-trips')).toBe('3');

    // Unverified email in the domain: nothing to discover.
    const unverified = await userWithEmail(`un@${domain}`, false);
    expect((await api.request('GET', `/email-domains/${domain}/orgs`, { token: unverified.token })).body).toEqual({ organizations: [] });
  });

  it('400 on an invalid domain, 401 without a token', async () => {
    const org = await newOrg();
    const bad = await api.request('GET', '/email-domains/not_a_domain/orgs', { token: org.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^emailDomain: must be a valid domain name/);
    expect((await api.request('GET', '/email-domains/example.com/orgs')).status).toBe(401);
  });
});

describe('GET /user', () => {
  it('answers the authenticated user; 404 once the user record is gone; 401 without a token', async () => {
    const { user, token } = await newUser('Me');
    const res = await api.request('GET', '/user', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'user', id: user.id, displayName: user.displayName, email: user.email,
      urls: { location: `${api.url}/v1/users/${user.id}` },
    });
    expect((await api.request('GET', '/user')).status).toBe(401);
    await db().send(new DeleteCommand({ TableName: config.tableName, Key: userEntity.key({ userId: user.id }) }));
    const gone = await api.request('GET', '/user', { token });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe(404);
  });
});


describe('official client (@gitbook/api)', () => {
  it('lists, reads, joins and reads instructions through GitBookAPI', async () => {
    const org = await newOrg('Client Org');
    const domain = uniqueDomain();
    await patchOrg(org, { emailDomains: [domain] });
    const client = officialClient(api, org.admin.token);
    const list = await client.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    expect(list.status).toBe(200);
    expect(list.data.items.map((o) => o.id)).toEqual([org.id]);
    const one = await client.orgs.getOrganizationById(org.id);
    expect(one.data).toMatchObject({ object: 'organization', id: org.id, title: 'Client Org', emailDomains: [domain], permissions: { admin: true } });
    const me = await client.user.getAuthenticatedUser();
    expect(me.data.id).toBe(org.admin.user.id);
    const instructions = await client.orgs.getOrganizationAgentInstructions(org.id);
    expect(instructions.data.object).toBe('agent-instructions');

    const joiner = await userWithEmail(`client@${domain}`);
    const joinerClient = officialClient(api, joiner.token);
    const found = await joinerClient.emailDomains.getOrganizationsForEmailDomain(domain);
    expect(found.data.organizations.map((o) => o.id)).toEqual([org.id]);
    const joined = await joinerClient.orgs.joinOrganization(org.id);
    expect(joined.status).toBe(204);
    const error = await client.orgs.getOrganizationById('missingorg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(404);
    expect((error as GitBookAPIError).errorMessage).toBe('No organization found with id missingorg');
    // Storage attributes never reach the client.
    for (const attr of [PK, SK, 'gsi1pk', 'gsi1sk', 'updatedAt']) expect(one.data).not.toHaveProperty(attr);
  });
});
