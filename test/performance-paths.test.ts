import { beforeEach, describe, expect, it } from 'vitest';
import { newOrg, newUser, useTestApi } from './support/api.ts';
import { createChangeRequest, createComment, createPage, createSpace, editChangeRequest, mergeChangeRequest } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { rateLimitCounterEntity } from '../shared/db/entities/rate-limit.ts';
import { advanceClock, nowEpochSeconds } from '../shared/clock.ts';
import { sha256Hex } from '../shared/ids.ts';

/** Issue 17: the paths made cheaper must answer exactly as before. */
const api = useTestApi();

// Each test starts one second into a fresh rate-limit window.
beforeEach(() => {
  const now = nowEpochSeconds();
  advanceClock((60 - (now % 60) + 1) * 1000);
});

describe('token request counter written in steps (shared/http/stepped-request-counter.ts)', () => {
  it('answers exact remaining counts from memory and writes what it counted at least every second', async () => {
    const before = process.env.RATE_LIMIT_PER_MINUTE;
    process.env.RATE_LIMIT_PER_MINUTE = '1000'; // a write every 50 requests, or every second
    try {
      const { token } = await newUser();
      const windowStart = nowEpochSeconds() - (nowEpochSeconds() % 60);
      const key = rateLimitCounterEntity.key({ scope: 'token', subject: sha256Hex(token), windowStart });
      for (let i = 0; i < 10; i++) {
        const res = await api.request('GET', '/user', { token });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(999 - i));
      }
      // Fewer writes than requests: the shared counter lags behind (the first request wrote 1).
      const lagging = Number((await getRecord(key, true))?.count);
      expect(lagging).toBeGreaterThanOrEqual(1);
      expect(lagging).toBeLessThanOrEqual(10);
      // A second later the next request writes everything counted so far.
      advanceClock(1500);
      const res = await api.request('GET', '/user', { token });
      expect(res.headers.get('x-ratelimit-remaining')).toBe('989');
      expect(await getRecord(key, true)).toMatchObject({ count: 11 });
    } finally {
      if (before === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
      else process.env.RATE_LIMIT_PER_MINUTE = before;
    }
  });
});

describe('GET /content from stored bytes (shared/presenters/presented-json-cache.ts)', () => {
  it('answers the same tree as /content/pages, per space, and a new revision at once', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Cached' });
    await createPage(api, org, space, { title: 'First' });
    const first = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const again = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(again.body).toEqual(first.body);
    const pages = await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token });
    expect(pages.body).toEqual({ pages: first.body.pages });
    expect(first.body.pages.map((p: { title: string }) => p.title)).toContain('First');
    expect(first.body.pages[0].urls.app).toContain(`/s/${space.id}/`);
    // metadata=false is its own entry, not the cached one with git metadata.
    const bare = await api.request('GET', `/spaces/${space.id}/content?metadata=false`, { token: org.admin.token });
    expect(bare.status).toBe(200);
    // A duplicate shares the manifest, not the presented bytes: its URLs name it.
    const copy = await api.request('POST', `/spaces/${space.id}/duplicate`, { token: org.admin.token });
    expect(copy.status).toBeLessThan(300);
    const copied = await api.request('GET', `/spaces/${copy.body.id}/content`, { token: org.admin.token });
    expect(copied.body.pages[0].urls.app).toContain(`/s/${copy.body.id}/`);
    expect(copied.body.pages[0].urls.app).not.toContain(space.id);
    // A new revision is a new manifest: its pages show at once.
    await createPage(api, org, space, { title: 'Second' });
    const next = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(next.body.pages.map((p: { title: string }) => p.title)).toEqual(expect.arrayContaining(['First', 'Second']));
  });

  it('serves the revision fields around the cached tree as they are now (a merged change request gains a comment)', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Merged' });
    const cr = await createChangeRequest(api, org, space, { subject: 'Add a page' });
    await editChangeRequest(api, org, space, cr, [{ operation: 'insert_page', title: 'Merged page', document: { markdown: 'Text\n' } }]);
    await mergeChangeRequest(api, org, space, cr);
    const before = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(before.status).toBe(200);
    expect(before.body.mergedFrom).toMatchObject({ id: cr.id, comments: 0 });
    // The whole answer is reused while nothing around the tree changed.
    const same = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(same.body).toEqual(before.body);
    await createComment(api, org, space, { changeRequest: cr });
    const after = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(after.body.mergedFrom).toMatchObject({ id: cr.id, comments: 1 });
    expect(after.body.pages).toEqual(before.body.pages);
    expect(after.body.id).toBe(before.body.id);
    // The pages-only answer has its own entry around the same tree.
    const pages = await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token });
    expect(pages.body).toEqual({ pages: before.body.pages });
  });
});
