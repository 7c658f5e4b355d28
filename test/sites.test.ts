import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg } from './support/api.ts';
import { addMember } from '../shared/commands/members/add.ts';
import { createSite, createSpace } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { siteEntity } from '../shared/db/entities/site.ts';
import { storedInPartition } from './support/stored.ts';

const api = useTestApi();

describe('sites: create, get, list, patch, delete, publish', () => {
  it('creates a site with spaces and returns every field of 2.12', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Getting Started' });
    const res = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Docs', visibility: 'unlisted', spaces: [space.id] } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.get('location')).toBe(`${api.url}/v1/orgs/${org.id}/sites/${id}`);
    expect(res.body).toEqual({
      object: 'site',
      id,
      type: 'basic',
      appliedType: 'basic',
      title: 'Docs',
      visibility: 'unlisted',
      defaultLevel: 'inherit',
      published: false,
      siteSpaces: 1,
      createdAt: expect.any(String),
      adaptiveContent: { enabled: false },
      ads: { status: 'pending', submittable: false },
      agentsContext: 'included',
      features: [],
      permissions: {
        view: true, access: true, edit: true, create: true, admin: true, installIntegration: true, viewAdaptiveSchema: true, editAdaptiveSchema: true,
      },
      urls: {
        location: `${api.url}/v1/orgs/${org.id}/sites/${id}`,
        app: expect.any(String),
        preview: expect.any(String),
      },
    });
    const get = await api.request('GET', `/orgs/${org.id}/sites/${id}`, { token: org.admin.token });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
    const stored = await getRecord(siteEntity.key({ siteId: id }));
    expect(stored).toMatchObject({ orgId: org.id, siteSpaces: 1, spaceRefs: { [space.id]: 1 }, entityType: 'site' });
    const spaces = await api.request('GET', `/orgs/${org.id}/sites/${id}/site-spaces`, { token: org.admin.token });
    expect(spaces.body.items).toHaveLength(1);
    expect(spaces.body.items[0]).toMatchObject({ object: 'site-space', path: 'getting-started', default: true, title: 'Getting Started', space: { id: space.id }, urls: {} });
  });

  it('defaults, 400 naming the field, 401, 403 and 404 across organizations', async () => {
    const org = await newOrg();
    const site = await createSite(api, org);
    expect(site).toMatchObject({ title: 'Untitled site', visibility: 'public', type: 'basic', siteSpaces: 0 });
    const bad = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { visibility: 'secret' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^visibility: /);
    const badSpace = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { spaces: ['nope'] } });
    expect(badSpace.status).toBe(400);
    expect(badSpace.body.error.message).toMatch(/^spaces\.0: /);
    const unknown = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { colour: 'red' } });
    expect(unknown.body.error.message).toBe('colour: is not an allowed field');
    expect((await api.request('GET', `/orgs/${org.id}/sites`, {})).status).toBe(401);
    const reader = await org.member('read');
    expect((await api.request('GET', `/orgs/${org.id}/sites/${site.id}`, { token: reader.token })).status).toBe(200);
    const readerView = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}`, { token: reader.token })).body;
    expect(readerView.permissions).toMatchObject({ view: true, create: false, admin: false });
    expect((await api.request('POST', `/orgs/${org.id}/sites`, { token: reader.token, body: {} })).status).toBe(403);
    expect((await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: reader.token, body: { title: 'New' } })).status).toBe(403);
    const creator = await org.member('create');
    expect((await api.request('POST', `/orgs/${org.id}/sites/${site.id}/publish`, { token: creator.token })).status).toBe(200);
    expect((await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: creator.token, body: { title: 'New' } })).status).toBe(403);
    const guest = await org.member(null);
    expect((await api.request('GET', `/orgs/${org.id}/sites`, { token: guest.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/sites/${site.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${other.id}/sites/${site.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/sites/missing`, { token: org.admin.token })).status).toBe(404);
    // A space of another organization cannot be added.
    const foreign = await createSpace(api, other, { title: 'Foreign' });
    const cross = await api.request('POST', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token, body: { spaceId: foreign.id } });
    expect(cross.status).toBe(400);
    expect(cross.body.error.message).toMatch(/^spaceId: /);
  });

  it('lists with filters (space, title, published) and pages', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'S' });
    const a = await createSite(api, org, { title: 'Alpha Docs', spaces: [space.id] });
    const b = await createSite(api, org, { title: 'Beta' });
    const c = await createSite(api, org, { title: 'Gamma docs' });
    await api.request('POST', `/orgs/${org.id}/sites/${b.id}/publish`, { token: org.admin.token });
    const list = async (query: Record<string, string | number>) => {
      const res = await api.request('GET', `/orgs/${org.id}/sites`, { token: org.admin.token, query });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await list({})).items.map((s: { id: string }) => s.id)).toEqual([a.id, b.id, c.id]);
    expect((await list({ space: space.id })).items.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await list({ title: 'DOCS' })).items.map((s: { id: string }) => s.id)).toEqual([a.id, c.id]);
    expect((await list({ published: 'true' })).items.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect((await list({ published: 'false' })).items.map((s: { id: string }) => s.id)).toEqual([a.id, c.id]);
    const first = await list({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(2);
    const second = await list({ limit: 2, page: first.next.page });
    expect(second.items.map((s: { id: string }) => s.id)).toEqual([c.id]);
    expect(second.next).toBeUndefined();
    const bad = await api.request('GET', `/orgs/${org.id}/sites`, { token: org.admin.token, query: { published: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^published: /);
  });

  it('lists with the type filter, one type or several (repeated, as the official client sends an array)', async () => {
    const org = await newOrg();
    const basic = await createSite(api, org, { title: 'Basic' });
    const premium = await createSite(api, org, { title: 'Premium', type: 'premium' });
    const ultimate = await createSite(api, org, { title: 'Ultimate', type: 'ultimate' });
    const ids = async (query: string) => {
      const res = await api.request('GET', `/orgs/${org.id}/sites?${query}`, { token: org.admin.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items.map((s: { id: string }) => s.id);
    };
    expect(await ids('type=ultimate')).toEqual([ultimate.id]);
    expect(await ids('type=basic&type=premium')).toEqual([basic.id, premium.id]);
    expect(await ids('type=ultimate&title=prem')).toEqual([]);
    expect(await ids('type=sponsored')).toEqual([]);
    const bad = await api.request('GET', `/orgs/${org.id}/sites?type=gold`, { token: org.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^type: must be one of basic, /);
  });

  it('a space transferred to another organization leaves the site: not listed, presented, searched or published', async () => {
    const org = await newOrg();
    const target = await newOrg('Target');
    await addMember(target.id, org.admin.user, 'admin');
    const kept = await createSpace(api, org, { title: 'Kept' });
    const leaving = await createSpace(api, org, { title: 'Leaving' });
    const site = await createSite(api, org, { title: 'Docs', spaces: [kept.id, leaving.id] });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/publish`, { token: org.admin.token });
    const before = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token })).body.items;
    expect(before.map((s: { space: { id: string } }) => s.space.id)).toEqual([kept.id, leaving.id]);
    const leavingPath = before[1].path;

    const moved = await api.request('POST', `/spaces/${leaving.id}/transfer`, { token: org.admin.token, body: { organization: target.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.organization).toBe(target.id);

    const after = await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token });
    expect(after.status).toBe(200);
    expect(after.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([kept.id]);
    expect(after.body.count).toBe(1);
    const published = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/published`, { token: org.admin.token })).body;
    expect(JSON.stringify(published.structure)).not.toContain(leaving.id);
    const search = await api.request('POST', `/orgs/${org.id}/sites/${site.id}/search`, { token: org.admin.token, body: { query: 'untitled', scope: { mode: 'all' } } });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).not.toContain(leaving.id);
    // The reader no longer serves the other organization's content under this site.
    expect((await fetch(`${api.url}/s/${site.id}/${leavingPath}`)).status).toBe(404);
    expect((await fetch(`${api.url}/s/${site.id}`)).status).toBe(200);
    // Stored: the site keeps its record (the space may come back); only what is shown changed.
    expect((await storedInPartition(siteEntity.key({ siteId: site.id }))).some((r) => r.spaceId === leaving.id)).toBe(true);

    // Transferred back, it shows again.
    expect((await api.request('POST', `/spaces/${leaving.id}/transfer`, { token: org.admin.token, body: { organization: org.id } })).status).toBe(200);
    const back = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token })).body.items;
    expect(back.map((s: { space: { id: string } }) => s.space.id)).toEqual([kept.id, leaving.id]);
  });

  it('a deleted space leaves the site until restored: lists, profile and reader; its site space cannot be changed meanwhile', async () => {
    const org = await newOrg();
    const kept = await createSpace(api, org, { title: 'Kept' });
    const trashed = await createSpace(api, org, { title: 'Trashed' });
    const site = await createSite(api, org, { title: 'Docs', spaces: [kept.id, trashed.id] });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/publish`, { token: org.admin.token });
    const [, trashedSiteSpace] = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token })).body.items;
    expect((await fetch(`${api.url}/s/${site.id}/${trashedSiteSpace.path}`)).status).toBe(200);

    expect((await api.request('DELETE', `/spaces/${trashed.id}`, { token: org.admin.token })).status).toBe(205);
    const listed = await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token });
    expect(listed.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([kept.id]);
    const profile = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/published`, { token: org.admin.token })).body;
    expect(JSON.stringify(profile.structure)).not.toContain(trashed.id);
    // The trash is not published: the reader stops serving the deleted space's pages.
    expect((await fetch(`${api.url}/s/${site.id}/${trashedSiteSpace.path}`)).status).toBe(404);
    const path = `/orgs/${org.id}/sites/${site.id}/site-spaces/${trashedSiteSpace.id}`;
    const patch = await api.request('PATCH', path, { token: org.admin.token, body: { path: 'elsewhere' } });
    expect(patch.status).toBe(404);
    expect(patch.body.error.message).toBe(`No site space found with id ${trashedSiteSpace.id}`);
    expect((await api.request('POST', `${path}/move`, { token: org.admin.token, body: {} })).status).toBe(404);
    const stored = await storedInPartition(siteEntity.key({ siteId: site.id }));
    expect(stored.find((r) => r.id === trashedSiteSpace.id)).toMatchObject({ path: trashedSiteSpace.path });

    // Restored, it shows again where it was.
    expect((await api.request('POST', `/spaces/${trashed.id}/restore`, { token: org.admin.token })).status).toBe(200);
    const back = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token })).body.items;
    expect(back.map((s: { id: string }) => s.id)).toEqual([expect.any(String), trashedSiteSpace.id]);
    expect((await fetch(`${api.url}/s/${site.id}/${trashedSiteSpace.path}`)).status).toBe(200);
  });

  it('patches settings; proxy set and removed; defaults validated; basename unique', async () => {
    const org = await newOrg();
    const s1 = await createSpace(api, org, { title: 'One' });
    const s2 = await createSpace(api, org, { title: 'Two' });
    const site = await createSite(api, org, { title: 'Docs', spaces: [s1.id, s2.id] });
    const ss = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token })).body.items;
    const res = await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, {
      token: org.admin.token,
      body: { title: 'Handbook', visibility: 'share-link', basename: 'handbook', adaptiveContent: { enabled: true }, agentsContext: 'excluded', proxy: 'example.com/docs', defaultSiteSpace: ss[1].id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Handbook', visibility: 'share-link', basename: 'handbook', adaptiveContent: { enabled: true }, agentsContext: 'excluded',
      proxy: { origin: 'example.com/docs', target: `${api.url}/s/${site.id}` },
    });
    const after = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token, query: { default: 'true' } })).body.items;
    expect(after.map((s: { id: string }) => s.id)).toEqual([ss[1].id]);
    const nonDefault = (await api.request('GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: org.admin.token, query: { default: 'false' } })).body.items;
    expect(nonDefault.map((s: { id: string }) => s.id)).toEqual([ss[0].id]);
    const removed = await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token, body: { proxy: null } });
    expect(removed.body.proxy).toBeUndefined();
    const badDefault = await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token, body: { defaultSiteSpace: 'nope' } });
    expect(badDefault.status).toBe(400);
    expect(badDefault.body.error.message).toMatch(/^defaultSiteSpace: /);
    const badSection = await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token, body: { defaultSiteSection: 'nope' } });
    expect(badSection.body.error.message).toMatch(/^defaultSiteSection: /);
    const badProxy = await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token, body: { proxy: 'not a proxy' } });
    expect(badProxy.status).toBe(400);
    expect(badProxy.body.error.message).toMatch(/^proxy: /);
    expect((await api.request('PATCH', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token, body: {} })).status).toBe(400);
    const other = await createSite(api, org, { title: 'Other' });
    const clash = await api.request('PATCH', `/orgs/${org.id}/sites/${other.id}`, { token: org.admin.token, body: { basename: 'handbook' } });
    expect(clash.status).toBe(409);
  });

  it('publishes: published=true and urls.published where the reader serves it', async () => {
    const org = await newOrg();
    const site = await createSite(api, org, { title: 'Docs' });
    const res = await api.request('POST', `/orgs/${org.id}/sites/${site.id}/publish`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.published).toBe(true);
    expect(res.body.urls.published).toBe(`${api.url}/s/${site.id}`);
    expect((await getRecord(siteEntity.key({ siteId: site.id })))?.published).toBe(true);
    expect((await api.request('POST', `/orgs/${org.id}/sites/missing/publish`, { token: org.admin.token })).status).toBe(404);
  });

  it('deletes the whole partition: 205 then 204', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'S' });
    const site = await createSite(api, org, { spaces: [space.id] });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/sections`, { token: org.admin.token, body: { spaceId: space.id, title: 'Guides' } });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/section-groups`, { token: org.admin.token, body: { title: 'G' } });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/share-links`, { token: org.admin.token, body: { name: 'L' } });
    expect((await storedInPartition(siteEntity.key({ siteId: site.id }))).length).toBeGreaterThan(4);
    const creator = await org.member('create');
    expect((await api.request('DELETE', `/orgs/${org.id}/sites/${site.id}`, { token: creator.token })).status).toBe(403);
    expect((await api.request('DELETE', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token })).status).toBe(205);
    expect(await storedInPartition(siteEntity.key({ siteId: site.id }))).toEqual([]);
    expect((await api.request('DELETE', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('GET', `/orgs/${org.id}/sites/${site.id}`, { token: org.admin.token })).status).toBe(404);
  });
});

describe('published profile, adaptive schema, template conditions', () => {
  it('returns the profile with root site spaces, then with sections and groups', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Intro' });
    const site = await createSite(api, org, { title: 'Docs', spaces: [space.id] });
    const res = await api.request('GET', `/orgs/${org.id}/sites/${site.id}/published`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'published-content-site', site: { id: site.id }, structure: { type: 'siteSpaces', structure: [{ object: 'site-space', path: 'intro' }] }, scripts: [] });
    const ssId = res.body.structure.structure[0].id;
    const custom = res.body.customizations;
    expect(Object.keys(custom.siteSpaces)).toEqual([ssId]);
    for (const field of ['title', 'styling', 'favicon', 'header', 'footer', 'themes', 'pdf', 'feedback', 'ai', 'advancedCustomization', 'git', 'pageActions', 'externalLinks', 'pagination', 'trademark', 'privacyPolicy', 'socialPreview', 'insights', 'internationalization', 'socialAccounts']) {
      expect(custom.site, field).toHaveProperty(field);
    }
    // No announcement until one is configured (its message is 2 to 128 characters).
    expect(custom.site).not.toHaveProperty('announcement');
    expect(custom.site.pageActions).toEqual({ externalAI: true, markdown: true, mcp: true, items: ['external-ai', 'markdown', 'mcp'] });
    expect(custom.site.header.preset).toBe('default');
    expect(custom.site.styling).toMatchObject({ background: 'plain', codeTheme: { default: { light: expect.any(String), dark: expect.any(String) }, openapi: { light: expect.any(String), dark: expect.any(String) } } });
    expect(custom.site.styling).toMatchObject({ primaryColor: { light: expect.any(String), dark: expect.any(String) }, sidebar: { background: expect.any(String), list: expect.any(String) } });
    expect(custom.site.title).toBe('Docs');
    const section = await api.request('POST', `/orgs/${org.id}/sites/${site.id}/sections`, { token: org.admin.token, body: { spaceId: space.id, title: 'Guides' } });
    await api.request('POST', `/orgs/${org.id}/sites/${site.id}/section-groups`, { token: org.admin.token, body: { title: 'Group', sections: [section.body.id] } });
    const withSections = await api.request('GET', `/orgs/${org.id}/sites/${site.id}/published`, { token: org.admin.token });
    expect(withSections.body.structure.type).toBe('sections');
    // The root content became a section of the site's name, before the new one.
    expect(withSections.body.structure.structure).toMatchObject([
      { object: 'site-section', title: 'Docs', default: true, siteSpaces: [{ id: ssId }] },
      { object: 'site-section-group', title: 'Group', children: [{ object: 'site-section', id: section.body.id, siteSpaces: [{ path: 'intro' }] }] },
    ]);
    expect(withSections.body.structure.structure[1].children[0].siteSpaces).toHaveLength(1);
    expect((await api.request('GET', `/orgs/${org.id}/sites/missing/published`, { token: org.admin.token })).status).toBe(404);
  });

  it('adaptive schema: 404 before, strict validation, stored, template conditions from claims', async () => {
    const org = await newOrg();
    const site = await createSite(api, org);
    const path = `/orgs/${org.id}/sites/${site.id}/adaptive-schema`;
    const none = await api.request('GET', path, { token: org.admin.token });
    expect(none.status).toBe(404);
    expect((await api.request('GET', `${path}/template-conditions`, { token: org.admin.token })).body).toEqual({ items: [] });
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        isBeta: { type: 'boolean', description: 'beta user' },
        unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { likesDark: { type: 'boolean', description: 'prefers the dark theme' } }, additionalProperties: false },
      },
      additionalProperties: false,
    };
    const put = await api.request('PUT', path, { token: org.admin.token, body: { jsonSchema } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ object: 'site-adaptive-schema', jsonSchema, updatedAt: expect.any(String) });
    expect((await api.request('GET', path, { token: org.admin.token })).body).toEqual(put.body);
    const conditions = await api.request('GET', `${path}/template-conditions`, { token: org.admin.token });
    expect(conditions.body.items).toEqual([
      { description: expect.any(String), condition: 'visitor.claims.isBeta === true' },
      { description: expect.any(String), condition: 'visitor.claims.unsigned.likesDark === true' },
    ]);
    const invalid = [
      [{ ...jsonSchema, type: 'array' }, 'jsonSchema.type'],
      [{ ...jsonSchema, properties: { plan: { type: 'boolean' } } }, 'jsonSchema.properties.plan.description'],
      [{ ...jsonSchema, properties: { unsigned: { type: 'object', properties: {}, additionalProperties: false } } }, 'jsonSchema.properties.unsigned.description'],
      [{ ...jsonSchema, additionalProperties: true }, 'jsonSchema.additionalProperties'],
      [{ ...jsonSchema, properties: { plan: { type: 'string' } } }, 'jsonSchema.properties.plan.type'],
      [{ ...jsonSchema, properties: { unsigned: { type: 'object', description: 'u', properties: {}, additionalProperties: true } } }, 'jsonSchema.properties.unsigned.additionalProperties'],
      [{ ...jsonSchema, extra: 1 }, 'jsonSchema.extra'],
      ['nope', 'jsonSchema'],
    ] as const;
    for (const [schema, field] of invalid) {
      const res = await api.request('PUT', path, { token: org.admin.token, body: { jsonSchema: schema } });
      expect(res.status, field).toBe(400);
      expect(res.body.error.message.startsWith(`${field}: `), res.body.error.message).toBe(true);
    }
    const reader = await org.member('read');
    expect((await api.request('PUT', path, { token: reader.token, body: { jsonSchema } })).status).toBe(403);
    expect((await api.request('GET', path, { token: reader.token })).status).toBe(200);
  });
});
