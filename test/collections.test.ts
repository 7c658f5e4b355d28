import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg } from './support/api.ts';
import { createChangeRequest, createCollection, createSpace } from './support/factories.ts';
import { changeRequestEntity } from '../shared/db/entities/change-request.ts';
import { getRecord } from '../shared/db/operations.ts';
import { collectionEntity } from '../shared/db/entities/collection.ts';

const api = useTestApi();

describe('POST /orgs/{organizationId}/collections', () => {
  it('creates a collection with every field and a Location header', async () => {
    const org = await newOrg();
    const res = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { title: 'Guides' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Guides',
      organization: org.id,
      defaultLevel: 'inherit',
      urls: { location: `${api.url}/v1/collections/${res.body.id}`, app: expect.any(String) },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(res.headers.get('location')).toBe(`${api.url}/v1/collections/${res.body.id}`);
    const stored = await getRecord(collectionEntity.key({ collectionId: res.body.id }));
    expect(stored).toMatchObject({ title: 'Guides', orgId: org.id, ancestors: [] });
  });

  it('nests under a parent and rejects bad input without writing', async () => {
    const org = await newOrg();
    const parent = await createCollection(api, org, { title: 'Parent' });
    const child = await createCollection(api, org, { title: 'Child', parent: parent.id });
    expect(child.parent).toBe(parent.id);
    const tooLong = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { title: 'x'.repeat(51) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/^title: /);
    const unknownField = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { titel: 'typo' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toMatch(/^titel: /);
    const badJson = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, rawBody: '{"title":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.message).toBe('body: is not valid JSON');
    const badParent = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { parent: 'nope' } });
    expect(badParent.status).toBe(400);
    expect(badParent.body.error.message).toMatch(/^parent: /);
    const list = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token });
    expect(list.body.items.map((c: { title: string }) => c.title).sort()).toEqual(['Child', 'Parent']);
  });

  it('needs the create role: 403 for readers, 404 outside the organization', async () => {
    const org = await newOrg();
    const reader = await org.member('read');
    const res = await api.request('POST', `/orgs/${org.id}/collections`, { token: reader.token, body: { title: 'No' } });
    expect(res.status).toBe(403);
    const other = await newOrg();
    const outsider = await api.request('POST', `/orgs/${org.id}/collections`, { token: other.admin.token, body: { title: 'No' } });
    expect(outsider.status).toBe(404);
    const creator = await org.member('create');
    await createCollection(api, org, { title: 'Yes' }, creator.token);
  });
});

describe('GET, PATCH and DELETE /collections/{collectionId}', () => {
  it('gets with permissions computed for the caller', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'Docs' });
    const reader = await org.member('read');
    const res = await api.request('GET', `/collections/${col.id}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    const other = await newOrg();
    expect((await api.request('GET', `/collections/${col.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', '/collections/missing', { token: org.admin.token })).status).toBe(404);
  });

  it('patches title, description and defaultLevel; admin only', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'Docs' });
    const res = await api.request('PATCH', `/collections/${col.id}`, {
      token: org.admin.token, body: { title: 'Handbook', description: 'All of it', defaultLevel: 'edit' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Handbook', description: 'All of it', defaultLevel: 'edit' });
    expect(await getRecord(collectionEntity.key({ collectionId: col.id }))).toMatchObject({ title: 'Handbook', defaultLevel: 'edit' });
    const bad = await api.request('PATCH', `/collections/${col.id}`, { token: org.admin.token, body: { defaultLevel: 'owner' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^defaultLevel: /);
    const long = await api.request('PATCH', `/collections/${col.id}`, { token: org.admin.token, body: { description: 'd'.repeat(101) } });
    expect(long.status).toBe(400);
    const editor = await org.member('edit');
    expect((await api.request('PATCH', `/collections/${col.id}`, { token: editor.token, body: { title: 'X' } })).status).toBe(403);
    expect(await getRecord(collectionEntity.key({ collectionId: col.id }))).toMatchObject({ title: 'Handbook' });
  });

  it('defaultLevel of a collection raises the role of members inside it', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'Open' });
    const reader = await org.member('read');
    expect((await api.request('PATCH', `/collections/${col.id}`, { token: reader.token, body: { title: 'X' } })).status).toBe(403);
    await api.request('PATCH', `/collections/${col.id}`, { token: org.admin.token, body: { defaultLevel: 'admin' } });
    const res = await api.request('PATCH', `/collections/${col.id}`, { token: reader.token, body: { title: 'Renamed by reader' } });
    expect(res.status).toBe(200);
  });

  it('deletes (204) with nested collections, and answers 204 when absent', async () => {
    const org = await newOrg();
    const parent = await createCollection(api, org, { title: 'P' });
    const child = await createCollection(api, org, { title: 'C', parent: parent.id });
    const reader = await org.member('read');
    expect((await api.request('DELETE', `/collections/${parent.id}`, { token: reader.token })).status).toBe(403);
    const res = await api.request('DELETE', `/collections/${parent.id}`, { token: org.admin.token });
    expect(res.status).toBe(204);
    expect(await getRecord(collectionEntity.key({ collectionId: parent.id }))).toBeUndefined();
    expect(await getRecord(collectionEntity.key({ collectionId: child.id }))).toBeUndefined();
    expect((await api.request('DELETE', `/collections/${parent.id}`, { token: org.admin.token })).status).toBe(204);
  });
});

describe('listing collections', () => {
  it('lists nested (default) or root only, with pagination', async () => {
    const org = await newOrg();
    const roots = [];
    for (let i = 0; i < 3; i++) roots.push(await createCollection(api, org, { title: `Root ${i}` }));
    await createCollection(api, org, { title: 'Nested', parent: roots[0].id });
    const all = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(4);
    const rootsOnly = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { nested: false } });
    expect(rootsOnly.body.items.map((c: { title: string }) => c.title)).toEqual(['Root 0', 'Root 1', 'Root 2']);
    const page1 = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { limit: 3 } });
    expect(page1.body.items).toHaveLength(3);
    expect(page1.body.next.page).toEqual(expect.any(String));
    const page2 = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { limit: 3, page: page1.body.next.page } });
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.next).toBeUndefined();
    const ids = new Set([...page1.body.items, ...page2.body.items].map((c: { id: string }) => c.id));
    expect(ids.size).toBe(4);
  });

  it('rejects limits outside 1..1000 and foreign cursors', async () => {
    const org = await newOrg();
    for (const limit of [0, 1001, 'ten']) {
      const res = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { limit } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^limit: /);
    }
    const other = await newOrg();
    await createCollection(api, other, {});
    await createCollection(api, other, {});
    const page = await api.request('GET', `/orgs/${other.id}/collections`, { token: other.admin.token, query: { limit: 1 } });
    const res = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { page: page.body.next.page } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^page: /);
  });
});

describe('POST /collections/{collectionId}/move and /transfer', () => {
  it('moves before a sibling, into a parent, and refuses no-op and cycles', async () => {
    const org = await newOrg();
    const a = await createCollection(api, org, { title: 'A' });
    const b = await createCollection(api, org, { title: 'B' });
    const moved = await api.request('POST', `/collections/${b.id}/move`, {
      token: org.admin.token, body: { position: { before: { type: 'collection', collection: a.id } } },
    });
    expect(moved.status).toBe(200);
    const roots = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token, query: { nested: false } });
    expect(roots.body.items.map((c: { title: string }) => c.title)).toEqual(['B', 'A']);
    const noop = await api.request('POST', `/collections/${b.id}/move`, {
      token: org.admin.token, body: { position: { before: { type: 'collection', collection: a.id } } },
    });
    expect(noop.status).toBe(409);
    const into = await api.request('POST', `/collections/${a.id}/move`, { token: org.admin.token, body: { parent: b.id } });
    expect(into.status).toBe(200);
    expect(into.body.parent).toBe(b.id);
    const cycle = await api.request('POST', `/collections/${b.id}/move`, { token: org.admin.token, body: { parent: a.id } });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/^parent: /);
    const badPosition = await api.request('POST', `/collections/${b.id}/move`, {
      token: org.admin.token, body: { position: { after: { type: 'space', space: 'nope' } } },
    });
    expect(badPosition.status).toBe(400);
    expect(badPosition.body.error.message).toMatch(/^position: /);
    const empty = await api.request('POST', `/collections/${b.id}/move`, { token: org.admin.token, body: {} });
    expect(empty.status).toBe(400);
    const toRoot = await api.request('POST', `/collections/${a.id}/move`, { token: org.admin.token, body: { parent: null } });
    expect(toRoot.status).toBe(200);
    expect(toRoot.body.parent).toBeUndefined();
    expect(await getRecord(collectionEntity.key({ collectionId: a.id }))).toMatchObject({ ancestors: [] });
  });

  it('transfers a collection and its subtree to another organization', async () => {
    const org = await newOrg();
    const parent = await createCollection(api, org, { title: 'P' });
    const child = await createCollection(api, org, { title: 'C', parent: parent.id });
    const target = await newOrg();
    const { addMember } = await import('../shared/commands/members/add.ts');
    await addMember(target.id, org.admin.user, 'create');
    const res = await api.request('POST', `/collections/${parent.id}/transfer`, { token: org.admin.token, body: { organization: target.id } });
    expect(res.status).toBe(200);
    expect(res.body.organization).toBe(target.id);
    expect(await getRecord(collectionEntity.key({ collectionId: child.id }))).toMatchObject({ orgId: target.id, ancestors: [parent.id] });
    const same = await api.request('POST', `/collections/${parent.id}/transfer`, { token: target.admin.token, body: { organization: target.id } });
    expect(same.status).toBe(409);
    const unknown = await api.request('POST', `/collections/${parent.id}/transfer`, { token: target.admin.token, body: { organization: org.id + 'x' } });
    expect(unknown.status).toBe(404);
    const missing = await api.request('POST', `/collections/${parent.id}/transfer`, { token: target.admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^organization: /);
  });

  it('the change requests of the spaces in a transferred collection follow them to the target organization', async () => {
    const org = await newOrg();
    const parent = await createCollection(api, org, { title: 'P' });
    const child = await createCollection(api, org, { title: 'C', parent: parent.id });
    const space = await createSpace(api, org, { title: 'Deep', parent: child.id });
    const cr = await createChangeRequest(api, org, space, { subject: 'Travels' });
    const listed = (orgId: string) => api.request('GET', `/orgs/${orgId}/change-requests`, { token: org.admin.token, query: { status: 'draft' } });
    expect((await listed(org.id)).body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    const target = await newOrg();
    const { addMember } = await import('../shared/commands/members/add.ts');
    await addMember(target.id, org.admin.user, 'create');

    expect((await api.request('POST', `/collections/${parent.id}/transfer`, { token: org.admin.token, body: { organization: target.id } })).status).toBe(200);
    const inTarget = await listed(target.id);
    expect(inTarget.status).toBe(200);
    expect(inTarget.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await listed(org.id)).body.items).toEqual([]);
    expect(await getRecord(changeRequestEntity.key({ spaceId: space.id, changeRequestId: cr.id }))).toMatchObject({ orgId: target.id });
  });
});
