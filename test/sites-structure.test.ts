import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { siteEntity, siteSectionEntity, siteSpaceEntity } from '../shared/db/entities/site.ts';
import { hashShareSecret } from '../shared/commands/sites/share-links.ts';
import { shareLinkEntity } from '../shared/db/entities/share-link.ts';
import { storedLike } from './support/stored.ts';

const api = useTestApi();

/** An org with a site and helpers bound to it. */
async function siteFixture(spaceTitles: string[] = []) {
  const org = await newOrg();
  const spaces = [];
  for (const t of spaceTitles) spaces.push(await createSpace(api, org, { title: t }));
  const site = (await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Docs', spaces: spaces.map((s) => s.id) } })).body;
  const base = `/orgs/${org.id}/sites/${site.id}`;
  const call = (method: string, path: string, body?: unknown, token = org.admin.token, query?: Record<string, string | number>) =>
    api.request(method, `${base}${path}`, { token, body, query });
  const stored = async () => (await getRecord(siteEntity.key({ siteId: site.id })))!;
  return { org, spaces, site, base, call, stored };
}

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('site spaces', () => {
  it('adds at the root with a unique path, patches, moves and deletes; counts stay true', async () => {
    const f = await siteFixture(['Guide']);
    const added = await f.call('POST', '/site-spaces', { spaceId: f.spaces[0].id });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ object: 'site-space', path: 'guide-2', default: false, space: { id: f.spaces[0].id }, title: 'Guide', draft: false });
    expect(added.body.section).toBeUndefined();
    expect(await f.stored()).toMatchObject({ siteSpaces: 2, spaceRefs: { [f.spaces[0].id]: 2 } });
    const list = (await f.call('GET', '/site-spaces')).body.items;
    const [first, second] = list;
    expect(first.default).toBe(true);

    const clash = await f.call('PATCH', `/site-spaces/${second.id}`, { path: 'guide' });
    expect(clash.status).toBe(409);
    const other = await createSpace(api, f.org, { title: 'Other' });
    const patched = await f.call('PATCH', `/site-spaces/${second.id}`, { path: 'v2', condition: 'visitor.claims.beta', spaceId: other.id });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta', space: { id: other.id }, title: 'Other' });
    expect(await f.stored()).toMatchObject({ spaceRefs: { [f.spaces[0].id]: 1, [other.id]: 1 } });
    const cleared = await f.call('PATCH', `/site-spaces/${second.id}`, { condition: null });
    expect(cleared.body.condition).toBeUndefined();
    expect((await f.call('PATCH', `/site-spaces/${second.id}`, { condition: 'x'.repeat(1025) })).body.error.message).toMatch(/^condition: /);
    expect((await f.call('PATCH', `/site-spaces/${second.id}`, { path: '' })).body.error.message).toMatch(/^path: /);
    expect((await f.call('PATCH', `/site-spaces/${second.id}`, { path: 'p'.repeat(101) })).status).toBe(400);
    expect((await f.call('PATCH', '/site-spaces/missing', { path: 'x' })).status).toBe(404);

    // Move (deprecated but working): before the first.
    const moved = await f.call('POST', `/site-spaces/${second.id}/move`, { position: { before: { type: 'site-space', siteSpace: first.id } } });
    expect(moved.status).toBe(200);
    expect(ids((await f.call('GET', '/site-spaces')).body.items)).toEqual([second.id, first.id]);
    const badMove = await f.call('POST', `/site-spaces/${second.id}/move`, { position: { after: { type: 'site-space', siteSpace: 'nope' } } });
    expect(badMove.status).toBe(400);
    expect(badMove.body.error.message).toMatch(/^position: /);
    expect((await f.call('POST', `/site-spaces/${second.id}/move`, {})).status).toBe(200);
    expect(ids((await f.call('GET', '/site-spaces')).body.items)).toEqual([first.id, second.id]);

    // Deleting the default site space makes the next one the default.
    expect((await f.call('DELETE', `/site-spaces/${first.id}`)).status).toBe(204);
    expect((await f.call('DELETE', `/site-spaces/${first.id}`)).status).toBe(204);
    const rest = (await f.call('GET', '/site-spaces')).body.items;
    expect(rest).toMatchObject([{ id: second.id, default: true }]);
    expect(await f.stored()).toMatchObject({ siteSpaces: 1, spaceRefs: { [other.id]: 1 }, defaultSiteSpace: second.id });
  });

  it('pages, needs the create role to write, 404 across organizations', async () => {
    const f = await siteFixture(['A', 'B', 'C']);
    const page1 = (await f.call('GET', '/site-spaces', undefined, undefined, { limit: 2 })).body;
    expect(page1.items).toHaveLength(2);
    const page2 = (await f.call('GET', '/site-spaces', undefined, undefined, { limit: 2, page: page1.next.page })).body;
    expect(page2.items.map((s: { path: string }) => s.path)).toEqual(['c']);
    expect(page2.next).toBeUndefined();
    const editor = await f.org.member('edit');
    expect((await f.call('GET', '/site-spaces', undefined, editor.token)).status).toBe(200);
    expect((await f.call('POST', '/site-spaces', { spaceId: f.spaces[0].id }, editor.token)).status).toBe(403);
    const stranger = await newOrg();
    expect((await f.call('GET', '/site-spaces', undefined, stranger.admin.token)).status).toBe(404);
    expect((await f.call('POST', '/site-spaces', {})).body.error.message).toMatch(/^spaceId: /);
    expect((await f.call('POST', '/site-spaces', { spaceId: f.spaces[0].id, sectionId: 'nope' })).body.error.message).toMatch(/^sectionId: /);
    expect((await api.request('DELETE', `/orgs/${f.org.id}/sites/missing/site-spaces/x`, { token: f.org.admin.token })).status).toBe(204);
  });
});

describe('sections', () => {
  it('the first section puts the root content in a section named after the site, then follows it; new site spaces go to the default section', async () => {
    const f = await siteFixture(['Intro']);
    const rootId = (await f.call('GET', '/site-spaces')).body.items[0].id;
    const api2 = await createSpace(api, f.org, { title: 'API Reference' });
    const created = await f.call('POST', '/sections', { spaceId: api2.id, title: 'Reference', icon: 'book' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'site-section', title: 'Reference', path: 'reference', default: false, icon: 'book', draft: false,
      siteSpaces: [{ path: 'api-reference', default: true, section: created.body.id }],
    });
    expect(created.body.siteSpaces).toHaveLength(1);
    // The site's content so far: a section of the site's name ('Docs'), first and default.
    const [root, ...rest] = (await f.call('GET', '/sections')).body.items;
    expect(root).toMatchObject({ title: 'Docs', path: 'docs', default: true, siteSpaces: [{ id: rootId, default: true, section: root.id }] });
    expect(root.icon).toBeUndefined();
    expect(ids(rest)).toEqual([created.body.id]);
    const second = await f.call('POST', '/sections', { spaceId: api2.id });
    expect(second.body).toMatchObject({ title: 'API Reference', path: 'api-reference', default: false, siteSpaces: [{ default: true }] });
    const added = await f.call('POST', '/site-spaces', { spaceId: api2.id });
    expect(added.body.section).toBe(root.id);
    const into = await f.call('POST', '/site-spaces', { spaceId: api2.id, sectionId: second.body.id });
    expect(into.body).toMatchObject({ section: second.body.id, path: 'api-reference-2' });
    expect(await f.stored()).toMatchObject({ siteSpaces: 5, defaultSiteSection: root.id });
    const list = await f.call('GET', '/sections');
    expect(ids(list.body.items)).toEqual([root.id, created.body.id, second.body.id]);
    // A site without root content gets just the requested section.
    const empty = await siteFixture();
    const lone = await createSpace(api, empty.org, { title: 'Lone' });
    const only = await empty.call('POST', '/sections', { spaceId: lone.id, title: 'Only' });
    expect(ids((await empty.call('GET', '/sections')).body.items)).toEqual([only.body.id]);
    expect(only.body.default).toBe(true);
    expect((await f.call('POST', '/sections', { spaceId: 'nope' })).body.error.message).toMatch(/^spaceId: /);
    expect((await f.call('POST', '/sections', { spaceId: api2.id, title: 'x' })).body.error.message).toMatch(/^title: /);
    expect((await f.call('POST', '/sections', { spaceId: api2.id, icon: 'i'.repeat(51) })).body.error.message).toMatch(/^icon: /);
  });

  it('patches (path unique, defaultSiteSpace in the section, condition/icon/description removed with null)', async () => {
    const f = await siteFixture();
    const s = await createSpace(api, f.org, { title: 'Space' });
    const a = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Alpha' })).body;
    const b = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Beta' })).body;
    const extra = (await f.call('POST', '/site-spaces', { spaceId: s.id, sectionId: a.id })).body;
    const res = await f.call('PATCH', `/sections/${a.id}`, { title: 'Alpha 2', path: 'alpha-two', defaultSiteSpace: extra.id, condition: 'visitor.claims.x', icon: 'star', description: 'About' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Alpha 2', path: 'alpha-two', condition: 'visitor.claims.x', icon: 'star', description: 'About' });
    expect(res.body.siteSpaces.find((x: { id: string }) => x.id === extra.id).default).toBe(true);
    const cleared = await f.call('PATCH', `/sections/${a.id}`, { condition: null, icon: null, description: null });
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect((await f.call('PATCH', `/sections/${a.id}`, { path: b.path })).status).toBe(409);
    const wrongDefault = await f.call('PATCH', `/sections/${a.id}`, { defaultSiteSpace: b.siteSpaces[0].id });
    expect(wrongDefault.status).toBe(400);
    expect(wrongDefault.body.error.message).toMatch(/^defaultSiteSpace: /);
    expect((await f.call('PATCH', '/sections/missing', { title: 'Nope' })).status).toBe(404);
    // Site-level defaults: the default section, and the default site space in it.
    const patched = await api.request('PATCH', f.base, { token: f.org.admin.token, body: { defaultSiteSection: b.id, defaultSiteSpace: b.siteSpaces[0].id } });
    expect(patched.status).toBe(200);
    const sections = (await f.call('GET', '/sections')).body.items;
    expect(sections.map((x: { default: boolean }) => x.default)).toEqual([false, true]);
  });

  it('moves among siblings (invalid position 400, no matching section 404)', async () => {
    const f = await siteFixture();
    const s = await createSpace(api, f.org, { title: 'Space' });
    const a = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Aa' })).body;
    const b = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Bb' })).body;
    const c = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Cc' })).body;
    const moved = await f.call('POST', `/sections/${c.id}/move`, { position: { before: { type: 'site-section', siteSection: a.id } } });
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(c.id);
    expect(ids((await f.call('GET', '/sections')).body.items)).toEqual([c.id, a.id, b.id]);
    await f.call('POST', `/sections/${c.id}/move`, { position: { after: { type: 'site-section', siteSection: b.id } } });
    expect(ids((await f.call('GET', '/sections')).body.items)).toEqual([a.id, b.id, c.id]);
    const self = await f.call('POST', `/sections/${c.id}/move`, { position: { after: { type: 'site-section', siteSection: c.id } } });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toMatch(/^position: /);
    const wrongType = await f.call('POST', `/sections/${c.id}/move`, { position: { after: { type: 'site-space', siteSection: a.id } } });
    expect(wrongType.status).toBe(400);
    expect((await f.call('POST', '/sections/missing/move', { position: { after: { type: 'site-section', siteSection: a.id } } })).status).toBe(404);
  });

  it('delete removes its site spaces; counts and defaults stay true; 205 then 204', async () => {
    const f = await siteFixture(['One', 'Two']);
    const s = f.spaces[0];
    const first = (await f.call('POST', '/sections', { spaceId: s.id, title: 'First' })).body;
    const second = (await f.call('POST', '/sections', { spaceId: f.spaces[1].id, title: 'Second' })).body;
    // The root content (One, Two) went to a section of the site's name, the default.
    const root = (await f.call('GET', '/sections')).body.items[0];
    expect(root).toMatchObject({ title: 'Docs', default: true });
    expect(await f.stored()).toMatchObject({ siteSpaces: 4, defaultSiteSection: root.id, spaceRefs: { [s.id]: 2, [f.spaces[1].id]: 2 } });
    expect((await f.call('DELETE', `/sections/${root.id}`)).status).toBe(205);
    expect(await f.stored()).toMatchObject({ siteSpaces: 2, defaultSiteSection: first.id, spaceRefs: { [s.id]: 1, [f.spaces[1].id]: 1 } });
    expect((await f.call('DELETE', `/sections/${first.id}`)).status).toBe(205);
    expect((await f.call('DELETE', `/sections/${first.id}`)).status).toBe(204);
    const stored = await f.stored();
    expect(stored).toMatchObject({ siteSpaces: 1, defaultSiteSection: second.id, spaceRefs: { [f.spaces[1].id]: 1 } });
    expect(stored.spaceRefs).not.toHaveProperty(s.id);
    const records = await storedLike(siteSpaceEntity.key({ siteId: f.site.id, siteSpaceId: '' }));
    expect(records).toHaveLength(1);
    expect(records[0]!.section).toBe(second.id);
    const sites = await api.request('GET', `/orgs/${f.org.id}/sites`, { token: f.org.admin.token, query: { space: s.id } });
    expect(sites.body.items).toEqual([]);
  });
});

describe('section groups', () => {
  it('creates with sections and a parent, patches, adds/removes sections, deletes keeping sections', async () => {
    const f = await siteFixture();
    const s = await createSpace(api, f.org, { title: 'Space' });
    const a = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Aa' })).body;
    const b = (await f.call('POST', '/sections', { spaceId: s.id, title: 'Bb' })).body;
    const outer = await f.call('POST', '/section-groups', { title: 'Outer', icon: 'folder', sections: [a.id] });
    expect(outer.status).toBe(201);
    expect(outer.body).toMatchObject({ object: 'site-section-group', title: 'Outer', icon: 'folder', draft: false, sections: [{ id: a.id, sectionGroup: outer.body.id }], children: [{ id: a.id }] });
    const inner = await f.call('POST', '/section-groups', { title: 'Inner', parent: outer.body.id, sections: [b.id] });
    expect(inner.body).toMatchObject({ sectionGroup: outer.body.id, children: [{ id: b.id }] });
    const listed = (await f.call('GET', '/section-groups')).body.items;
    expect(ids(listed)).toEqual([outer.body.id, inner.body.id]);
    expect(listed[0].children.map((x: { id: string }) => x.id)).toEqual([a.id, inner.body.id]);
    // Errors name the field.
    expect((await f.call('POST', '/section-groups', { title: '' })).body.error.message).toMatch(/^title: /);
    expect((await f.call('POST', '/section-groups', { title: 't'.repeat(101) })).status).toBe(400);
    expect((await f.call('POST', '/section-groups', { title: 'X', sections: ['nope'] })).body.error.message).toMatch(/^sections\.0: /);
    expect((await f.call('POST', '/section-groups', { title: 'X', parent: 'nope' })).body.error.message).toMatch(/^parent: /);

    const patched = await f.call('PATCH', `/section-groups/${outer.body.id}`, { title: 'Renamed', icon: null });
    expect(patched.status).toBe(200);
    expect(patched.body.title).toBe('Renamed');
    expect(patched.body.icon).toBeUndefined();
    expect((await f.call('PATCH', '/section-groups/missing', { title: 'X' })).status).toBe(404);

    // Remove b from inner: it moves to inner's parent (outer). 204 also when not a member.
    expect((await f.call('DELETE', `/section-groups/${inner.body.id}/sections/${b.id}`)).status).toBe(204);
    expect((await f.call('DELETE', `/section-groups/${inner.body.id}/sections/${b.id}`)).status).toBe(204);
    expect((await f.call('DELETE', `/section-groups/missing/sections/${b.id}`)).status).toBe(204);
    let sections = (await f.call('GET', '/sections')).body.items;
    expect(sections.find((x: { id: string }) => x.id === b.id).sectionGroup).toBe(outer.body.id);
    // Add it back.
    const addBack = await f.call('POST', `/section-groups/${inner.body.id}/sections`, { sectionId: b.id });
    expect(addBack.status).toBe(201);
    expect(ids(addBack.body.sections)).toEqual([b.id]);
    expect((await f.call('POST', `/section-groups/${inner.body.id}/sections`, { sectionId: 'nope' })).body.error.message).toMatch(/^sectionId: /);
    expect((await f.call('POST', `/section-groups/missing/sections`, { sectionId: b.id })).status).toBe(404);

    // Deleting the outer group lifts its section and the inner group to the root.
    expect((await f.call('DELETE', `/section-groups/${outer.body.id}`)).status).toBe(204);
    expect((await f.call('DELETE', `/section-groups/${outer.body.id}`)).status).toBe(204);
    sections = (await f.call('GET', '/sections')).body.items;
    expect(sections.find((x: { id: string }) => x.id === a.id).sectionGroup).toBeUndefined();
    expect(sections.find((x: { id: string }) => x.id === b.id).sectionGroup).toBe(inner.body.id);
    const groups = (await f.call('GET', '/section-groups')).body.items;
    expect(groups).toMatchObject([{ id: inner.body.id }]);
    expect(groups[0].sectionGroup).toBeUndefined();
    // Deleting the inner group: b reaches the root; no dangling references remain.
    await f.call('DELETE', `/section-groups/${inner.body.id}`);
    const records = await storedLike(siteSectionEntity.key({ siteId: f.site.id, sectionId: '' }));
    expect(records.map((r) => r.sectionGroup)).toEqual([undefined, undefined]);
    const profile = (await f.call('GET', '/published')).body;
    expect(profile.structure.structure.map((x: { object: string }) => x.object)).toEqual(['site-section', 'site-section']);
  });
});

describe('share links', () => {
  it('creates with a >=128-bit secret stored only hashed and sealed; lists, patches, deletes', async () => {
    const f = await siteFixture(['Space']);
    const created = await f.call('POST', '/share-links', { name: 'Partners' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ object: 'share-link', id: expect.any(String), createdAt: expect.any(String), name: 'Partners', active: true, urls: { published: expect.any(String) } });
    const secret = new URL(created.body.urls.published).searchParams.get('share')!;
    expect(secret).toMatch(/^[0-9A-Za-z]{22}$/);
    const record = (await storedLike(shareLinkEntity.key({ siteId: f.site.id, shareLinkId: '' })))[0]!;
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(record.secretHash).toBe(hashShareSecret(secret));
    const list = await f.call('GET', '/share-links');
    expect(list.body.items).toEqual([created.body]);
    const patched = await f.call('PATCH', `/share-links/${created.body.id}`, { active: false, name: 'Renamed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ active: false, name: 'Renamed', urls: created.body.urls });
    expect((await f.call('PATCH', `/share-links/${created.body.id}`, {})).status).toBe(400);
    expect((await f.call('POST', '/share-links', {})).body.error.message).toMatch(/^name: /);
    expect((await f.call('POST', '/share-links', { name: 'n'.repeat(51) })).body.error.message).toMatch(/^name: /);
    expect((await f.call('PATCH', '/share-links/missing', { active: true })).status).toBe(404);
    const creator = await f.org.member('create');
    expect((await f.call('GET', '/share-links', undefined, creator.token)).status).toBe(403);
    expect((await f.call('DELETE', `/share-links/${created.body.id}`)).status).toBe(204);
    expect((await f.call('DELETE', `/share-links/${created.body.id}`)).status).toBe(204);
    expect((await f.call('GET', '/share-links')).body.items).toEqual([]);
  });

  it('shareKey resolves published URLs of a share-link site only with an active link', async () => {
    const f = await siteFixture(['Space']);
    await api.request('PATCH', f.base, { token: f.org.admin.token, body: { visibility: 'share-link' } });
    await api.request('POST', `${f.base}/publish`, { token: f.org.admin.token });
    const link = (await f.call('POST', '/share-links', { name: 'L' })).body;
    const secret = new URL(link.urls.published).searchParams.get('share')!;
    const withKey = (await f.call('GET', '/site-spaces', undefined, undefined, { shareKey: secret })).body.items[0];
    expect(withKey.urls.published).toContain(`?share=${secret}`);
    const wrong = (await f.call('GET', '/site-spaces', undefined, undefined, { shareKey: 'wrong' })).body.items[0];
    expect(wrong.urls.published).not.toContain('share=');
    await f.call('PATCH', `/share-links/${link.id}`, { active: false });
    const inactive = (await f.call('GET', '/site-spaces', undefined, undefined, { shareKey: secret })).body.items[0];
    expect(inactive.urls.published).not.toContain('share=');
  });
});

describe('concurrency', () => {
  it('parallel structure writes all land and the count stays true', async () => {
    const f = await siteFixture();
    const s = await createSpace(api, f.org, { title: 'Space' });
    const results = await Promise.all(Array.from({ length: 6 }, () => f.call('POST', '/site-spaces', { spaceId: s.id })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const paths = new Set(results.map((r) => r.body.path));
    expect(paths.size).toBe(6);
    expect(await f.stored()).toMatchObject({ siteSpaces: 6, spaceRefs: { [s.id]: 6 } });
    expect(await storedLike(siteSpaceEntity.key({ siteId: f.site.id, siteSpaceId: '' }))).toHaveLength(6);
  });
});
