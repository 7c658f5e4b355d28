import { describe, expect, it } from 'vitest';
import { PutObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { useTestApi, newOrg } from './support/api.ts';
import { createCollection, createSpace, createChangeRequest } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { advanceClock } from '../shared/clock.ts';
import { sweepExpiredSpaces, spaceObjectPrefix } from '../shared/commands/spaces/purge.ts';
import { revisionEntity } from '../shared/db/entities/revision.ts';
import { storedInPartition } from './support/stored.ts';

const api = useTestApi();

const DAY = 24 * 60 * 60 * 1000;

describe('POST /orgs/{organizationId}/spaces and GET /spaces/{spaceId}', () => {
  it('creates a space and returns every field of the spec', async () => {
    const org = await newOrg();
    const res = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'API docs', emoji: '1f4d8' } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.headers.get('location')).toBe(`${api.url}/v1/spaces/${id}`);
    const get = await api.request('GET', `/spaces/${id}`, { token: org.admin.token });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({
      object: 'space',
      id,
      title: 'API docs',
      emoji: '1f4d8',
      visibility: 'private',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: {
        location: `${api.url}/v1/spaces/${id}`,
        app: expect.any(String),
        published: expect.stringContaining(id),
        icon: expect.any(String),
      },
      organization: org.id,
      revision: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true,
        comment: true, merge: true, review: true, installIntegration: true,
      },
    });
    expect(Object.keys(get.body)).not.toContain('pk');
    expect(Number(get.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(2);
    const stored = await getRecord(spaceEntity.key({ spaceId: id }));
    expect(stored).toMatchObject({ title: 'API docs', orgId: org.id, revision: get.body.revision });
    // The first revision is stored with the space.
    expect(await revisionEntity.get({ spaceId: id, revisionId: get.body.revision })).toMatchObject({ parents: [], type: 'initial' });
  });

  it('computes permissions per role and hides spaces from other organizations', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'S' });
    const reader = await org.member('read');
    const res = await api.request('GET', `/spaces/${space.id}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
    const guest = await org.member(null);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: guest.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}`)).status).toBe(401);
  });

  it('validates the create body and the role', async () => {
    const org = await newOrg();
    const long = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 't'.repeat(51) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^title: /);
    const mode = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { editMode: 'frozen' } });
    expect(mode.status).toBe(400);
    expect(mode.body.error.message).toMatch(/^editMode: /);
    const language = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { language: 'klingon' } });
    expect(language.status).toBe(400);
    expect(language.body.error.message).toBe('language: must be a language code such as en, fr or pt-br');
    const editor = await org.member('edit');
    expect((await api.request('POST', `/orgs/${org.id}/spaces`, { token: editor.token, body: {} })).status).toBe(403);
    const list = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
    expect(list.body.items).toEqual([]);
    const brazilian = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'BR', language: 'pt-br' } });
    expect(brazilian.status).toBe(201);
    expect(brazilian.body.language).toBe('pt-br');
    expect(await getRecord(spaceEntity.key({ spaceId: brazilian.body.id }))).toMatchObject({ language: 'pt-br' });
  });

  it('creates inside a collection, where the collection lists it', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'C' });
    const space = await createSpace(api, org, { title: 'In C', parent: col.id });
    expect(space).toMatchObject({ parent: col.id, visibility: 'in-collection' });
    const listed = await api.request('GET', `/collections/${col.id}/spaces`, { token: org.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([space.id]);
  });
});

describe('round trips', () => {
  it('a repeated GET costs one round trip, and role changes and revocations still apply at once', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'C' });
    const space = await createSpace(api, org, { title: 'Hot', parent: col.id });
    const member = await org.member('read');
    const first = await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    expect(Number(first.headers.get('x-db-round-trips'))).toBeLessThanOrEqual(2);
    const warm = await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    expect(warm.headers.get('x-db-round-trips')).toBe('1');
    expect(warm.body.permissions.admin).toBe(false);
    // This process's own write: the cached membership is forgotten (shared/db/writes.ts), so the new role shows immediately.
    await api.request('PATCH', `/orgs/${org.id}/members/${member.user.id}`, { token: org.admin.token, body: { role: 'admin' } });
    const promoted = await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    expect(promoted.body.permissions.admin).toBe(true);
    const { revokeAccessToken } = await import('../shared/commands/tokens/revoke.ts');
    await revokeAccessToken(member.token);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).status).toBe(401);
  });
});

describe('PATCH /spaces/{spaceId}', () => {
  it('updates fields, stores them, and locks edits with editMode', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Old' });
    const res = await api.request('PATCH', `/spaces/${space.id}`, {
      token: org.admin.token,
      body: { title: 'New', emoji: '1f600', language: 'fr', defaultLevel: 'comment', mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'New', emoji: '1f600', language: 'fr', defaultLevel: 'comment' });
    expect(await getRecord(spaceEntity.key({ spaceId: space.id }))).toMatchObject({ title: 'New', language: 'fr' });

    const editor = await org.member('edit');
    expect((await api.request('PATCH', `/spaces/${space.id}`, { token: editor.token, body: { title: 'By editor' } })).status).toBe(200);
    expect((await api.request('PATCH', `/spaces/${space.id}`, { token: editor.token, body: { editMode: 'locked' } })).status).toBe(403);
    const locked = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } });
    expect(locked.body.editMode).toBe('locked');
    expect(locked.body.permissions.edit).toBe(false);
    const blocked = await api.request('PATCH', `/spaces/${space.id}`, { token: editor.token, body: { title: 'Nope' } });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.message).toMatch(/locked/);
    expect(await getRecord(spaceEntity.key({ spaceId: space.id }))).toMatchObject({ title: 'By editor', editMode: 'locked' });
  });

  it('rejects bad values naming the field and writes nothing', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Keep' });
    for (const [body, field] of [
      [{ editMode: 'open' }, 'editMode'], [{ defaultLevel: 'boss' }, 'defaultLevel'],
      [{ mergeRules: { type: 'sometimes' } }, 'mergeRules'], [{ visibility: 'public' }, 'visibility'], [{}, 'body'],
      // Space.language is the public interface's TranslationLanguage: a code outside it is refused.
      [{ language: 'xx' }, 'language'], [{ language: 'en-gb' }, 'language'],
      // Emoji is the public Emoji: a character or its code points, nothing else.
      [{ emoji: 'rocket' }, 'emoji'], [{ emoji: '<b>1f680</b>' }, 'emoji'], [{ emoji: '110000' }, 'emoji'], [{ emoji: 'A' }, 'emoji'],
    ] as const) {
      const res = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}(\\.\\w+)?: `));
    }
    expect(await getRecord(spaceEntity.key({ spaceId: space.id }))).toMatchObject({ title: 'Keep', editMode: 'live' });
    // Either spelling of an emoji is kept as given; an empty string removes it, as null does.
    for (const emoji of ['🚀', '👨‍💻', '🇫🇷', '1f468-200d-1f4bb']) {
      const res = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { emoji } });
      expect(res.status, emoji).toBe(200);
      expect(res.body.emoji).toBe(emoji);
    }
    const cleared = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { emoji: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.emoji).toBe('');
  });

  it('concurrent patches of different fields both land', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Race' });
    const results = await Promise.all([
      api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { emoji: '1f680' } }),
      api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { language: 'de' } }),
    ]);
    // Optimistic concurrency: a loser gets 409 and nothing is silently overwritten.
    const stored = await getRecord(spaceEntity.key({ spaceId: space.id }));
    for (const r of results) {
      expect([200, 409]).toContain(r.status);
      if (r.status === 200 && r.body.emoji === '1f680') expect(stored?.emoji).toBe('1f680');
      if (r.status === 200 && r.body.language === 'de') expect(stored?.language).toBe('de');
    }
  });
});

describe('delete, restore and permanent removal', () => {
  it('deletes with 205, then 204 when absent; hides the space; restores within 7 days', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Trash me' });
    const reader = await org.member('read');
    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: reader.token })).status).toBe(403);
    const del = await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token });
    expect(del.status).toBe(205);
    const stored = await getRecord(spaceEntity.key({ spaceId: space.id }));
    expect(stored?.deletedAt).toEqual(expect.any(String));
    expect(stored?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 6.9 * 86400);
    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('DELETE', '/spaces/never-existed', { token: org.admin.token })).status).toBe(204);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: org.admin.token })).status).toBe(404);
    const list = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
    expect(list.body.items).toEqual([]);

    advanceClock(6 * DAY);
    const restored = await api.request('POST', `/spaces/${space.id}/restore`, { token: org.admin.token });
    advanceClock(-6 * DAY);
    expect(restored.status).toBe(200);
    expect(restored.body.id).toBe(space.id);
    expect(restored.body.deletedAt).toBeUndefined();
    const after = await getRecord(spaceEntity.key({ spaceId: space.id }));
    expect(after?.deletedAt).toBeUndefined();
    expect(after?.expiresAt).toBeUndefined();
    expect((await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token })).body.items).toHaveLength(1);
    const notDeleted = await api.request('POST', `/spaces/${space.id}/restore`, { token: org.admin.token });
    expect(notDeleted.status).toBe(409);
  });

  it('after 7 days restore is 404 and the sweep purges everything the space owned', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Gone' });
    // Something the space owns: a record in its partition and an object under its prefix.
    await createChangeRequest(api, org, space);
    const objectKey = `${spaceObjectPrefix(space.id)}files/blob`;
    await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: objectKey, Body: 'bytes' }));
    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token })).status).toBe(205);

    advanceClock(7 * DAY + 1000);
    try {
      const late = await api.request('POST', `/spaces/${space.id}/restore`, { token: org.admin.token });
      expect(late.status).toBe(404);
      const purged = await sweepExpiredSpaces();
      expect(purged).toContain(space.id);
    } finally {
      advanceClock(-(7 * DAY + 1000));
    }
    expect(await storedInPartition(spaceEntity.key({ spaceId: space.id }))).toEqual([]);
    await expect(s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: objectKey }))).rejects.toThrow();
  });
});

describe('duplicate, move and transfer', () => {
  it('duplicates right after the original', async () => {
    const org = await newOrg();
    const a = await createSpace(api, org, { title: 'A' });
    const b = await createSpace(api, org, { title: 'B' });
    const dup = await api.request('POST', `/spaces/${a.id}/duplicate`, { token: org.admin.token });
    expect(dup.status).toBe(201);
    expect(dup.body).toMatchObject({ object: 'space', title: 'A (copy)', organization: org.id });
    expect(dup.body.id).not.toBe(a.id);
    const order = await api.request('GET', `/orgs/${org.id}/collections`, { token: org.admin.token });
    expect(order.status).toBe(200);
    const { listChildren } = await import('../shared/commands/content/tree.ts');
    expect((await listChildren(org.id, undefined)).map((n) => n.id)).toEqual([a.id, dup.body.id, b.id]);
    const reader = await org.member('read');
    expect((await api.request('POST', `/spaces/${a.id}/duplicate`, { token: reader.token })).status).toBe(403);
  });

  it('moves into a collection, before a sibling, and refuses no-ops and bad positions', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'C' });
    const a = await createSpace(api, org, { title: 'A', parent: col.id });
    const b = await createSpace(api, org, { title: 'B' });
    const into = await api.request('POST', `/spaces/${b.id}/move`, {
      token: org.admin.token, body: { parent: col.id, position: { before: { type: 'space', space: a.id } } },
    });
    expect(into.status).toBe(200);
    expect(into.body.parent).toBe(col.id);
    const listed = await api.request('GET', `/collections/${col.id}/spaces`, { token: org.admin.token });
    expect(listed.body.items.map((s: { title: string }) => s.title)).toEqual(['B', 'A']);
    const noop = await api.request('POST', `/spaces/${b.id}/move`, { token: org.admin.token, body: { parent: col.id, position: { before: { type: 'space', space: a.id } } } });
    expect(noop.status).toBe(409);
    const bad = await api.request('POST', `/spaces/${b.id}/move`, { token: org.admin.token, body: { position: { after: { type: 'space', space: 'elsewhere' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^position: /);
    const badParent = await api.request('POST', `/spaces/${b.id}/move`, { token: org.admin.token, body: { parent: 'missing' } });
    expect(badParent.status).toBe(400);
    expect((await api.request('POST', '/spaces/missing/move', { token: org.admin.token, body: { parent: null } })).status).toBe(404);
    const out = await api.request('POST', `/spaces/${b.id}/move`, { token: org.admin.token, body: { parent: null } });
    expect(out.status).toBe(200);
    expect(await getRecord(spaceEntity.key({ spaceId: b.id }))).toMatchObject({ ancestors: [] });
  });

  it('a space leaving its collection for the root is no longer in-collection: moved, transferred or restored, it becomes private', async () => {
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'C' });
    const moved = await createSpace(api, org, { title: 'Moved', parent: col.id });
    const restored = await createSpace(api, org, { title: 'Restored', parent: col.id });
    const stays = await createSpace(api, org, { title: 'Stays', parent: col.id });
    expect([moved.visibility, restored.visibility]).toEqual(['in-collection', 'in-collection']);

    const out = await api.request('POST', `/spaces/${moved.id}/move`, { token: org.admin.token, body: { parent: null } });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ visibility: 'private' });
    expect(out.body.parent).toBeUndefined();
    expect(await getRecord(spaceEntity.key({ spaceId: moved.id }))).toMatchObject({ visibility: 'private' });
    // Back into a collection, a private space stays private (only new spaces start in-collection).
    const back = await api.request('POST', `/spaces/${moved.id}/move`, { token: org.admin.token, body: { parent: col.id } });
    expect(back.body).toMatchObject({ parent: col.id, visibility: 'private' });

    expect((await api.request('DELETE', `/spaces/${restored.id}`, { token: org.admin.token })).status).toBe(205);
    const other = await createCollection(api, org, { title: 'Other' });
    expect((await api.request('POST', `/spaces/${stays.id}/move`, { token: org.admin.token, body: { parent: other.id } })).body.visibility).toBe('in-collection');
    expect((await api.request('DELETE', `/collections/${col.id}`, { token: org.admin.token })).status).toBe(204);
    const res = await api.request('POST', `/spaces/${restored.id}/restore`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ visibility: 'private' });
    expect(res.body.parent).toBeUndefined();
    expect(await getRecord(spaceEntity.key({ spaceId: restored.id }))).toMatchObject({ visibility: 'private' });

    const target = await newOrg();
    const { addMember } = await import('../shared/commands/members/add.ts');
    await addMember(target.id, org.admin.user, 'create');
    const transferred = await api.request('POST', `/spaces/${stays.id}/transfer`, { token: org.admin.token, body: { organization: target.id } });
    expect(transferred.status).toBe(200);
    expect(transferred.body).toMatchObject({ organization: target.id, visibility: 'private' });
  });

  it('transfers to another organization and into a collection', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Moving' });
    const target = await newOrg();
    const { addMember } = await import('../shared/commands/members/add.ts');
    await addMember(target.id, org.admin.user, 'create');
    const res = await api.request('POST', `/spaces/${space.id}/transfer`, { token: org.admin.token, body: { organization: target.id } });
    expect(res.status).toBe(200);
    expect(res.body.organization).toBe(target.id);
    expect(await getRecord(spaceEntity.key({ spaceId: space.id }))).toMatchObject({ orgId: target.id });
    const targetList = await api.request('GET', `/orgs/${target.id}/spaces`, { token: target.admin.token });
    expect(targetList.body.items.map((s: { id: string }) => s.id)).toEqual([space.id]);
    expect((await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token })).body.items).toEqual([]);
    const again = await api.request('POST', `/spaces/${space.id}/transfer`, { token: target.admin.token, body: { organization: target.id } });
    expect(again.status).toBe(409);
    const col = await createCollection(api, target, { title: 'T' });
    const intoCol = await api.request('POST', `/spaces/${space.id}/transfer`, { token: target.admin.token, body: { collection: col.id } });
    expect(intoCol.status).toBe(200);
    expect(intoCol.body.parent).toBe(col.id);
    const empty = await api.request('POST', `/spaces/${space.id}/transfer`, { token: target.admin.token, body: {} });
    expect(empty.status).toBe(400);
    const unknownOrg = await api.request('POST', `/spaces/${space.id}/transfer`, { token: target.admin.token, body: { organization: 'nope' } });
    expect(unknownOrg.status).toBe(404);
  });
});

describe('GET /orgs/{organizationId}/spaces', () => {
  it('pages through the spaces the caller can read', async () => {
    const org = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createSpace(api, org, { title: `S${i}` })).id);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token, query: { limit: 2, page } });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((s: { id: string }) => s.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual(ids);
    // A space with defaultLevel null is invisible to a plain reader.
    await api.request('PATCH', `/spaces/${ids[0]}`, { token: org.admin.token, body: { defaultLevel: null } });
    const guestOrg = await newOrg();
    expect((await api.request('GET', `/orgs/${org.id}/spaces`, { token: guestOrg.admin.token })).status).toBe(404);
  });
});
