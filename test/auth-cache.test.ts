import { afterEach, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newOrg, newUser, useTestApi } from './support/api.ts';
import { createCollection, createSpace } from './support/factories.ts';
import { advanceClock, freezeClock, nowEpochSeconds, resetClock, stepWallClock } from '../shared/clock.ts';
import { db } from '../shared/db/client.ts';
import { run, type Write } from '../shared/db/writes.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { tokenEntity } from '../shared/db/entities/token.ts';
import { sha256Hex } from '../shared/ids.ts';
import { addMember } from '../shared/commands/members/add.ts';
import { createAccessToken } from '../shared/commands/tokens/create.ts';

/**
 * The authentication cache (shared/http/auth-cache.ts): what authenticating and the access
 * check read is kept per instance for AUTH_CACHE_SECONDS (5 s by default). This process's
 * own writes apply at once; a write made by another instance applies after the window.
 */

const api = useTestApi();
const WINDOW_MS = 5_000;

afterEach(() => {
  resetClock();
  delete process.env.AUTH_CACHE_SECONDS;
});

/** Runs a declared update as another instance would: straight to storage, not through this process's writes.ts. */
async function writeElsewhere(write: Write<unknown>): Promise<void> {
  await db().send(new UpdateCommand(write.transactItem.Update!));
}

/** Records this process wrote in the last second are not kept (replicas may lag): let them settle. */
const settle = () => advanceClock(1_000);

/** The DynamoDB commands `action` sends (the server runs in this process). */
async function storageCommandsOf(action: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const name = `count-${Math.random()}`;
  db().middlewareStack.add((next, context) => async (args) => {
    sent.push(context.commandName ?? '?');
    return next(args);
  }, { step: 'initialize', name });
  try {
    await action();
  } finally {
    db().middlewareStack.remove(name);
  }
  return sent;
}

const roundTrips = (res: { headers: Headers }) => res.headers.get('x-db-round-trips');

describe('authentication cache', () => {
  it('a warm GET of a space in a collection reads only the space', async () => {
    // A loaded machine's stall must not cross the settle or cache windows (a read slower than
    // a second keeps nothing): time moves here only as the test moves it.
    freezeClock();
    const org = await newOrg();
    const col = await createCollection(api, org, { title: 'C' });
    const space = await createSpace(api, org, { title: 'S', parent: col.id });
    const member = await org.member('read');
    settle();
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).status).toBe(200);
    const commands = await storageCommandsOf(() => api.request('GET', `/spaces/${space.id}`, { token: member.token }));
    // One GetItem of the space: token, membership, organization and collection come from the
    // cache (the token's rate-limit counter, an UpdateItem written in steps, is no read).
    expect(commands.filter((name) => name !== 'UpdateItemCommand')).toEqual(['GetItemCommand']);
    // The space itself is read fresh every time: a rename shows at once.
    await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { title: 'Renamed' } });
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).body.title).toBe('Renamed');
  });

  it('a role change or revocation written by another instance applies after the window, not before', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Window' });
    const member = await org.member('read');
    // Past the window: what setting up cached has expired and this process's writes have
    // settled, so the next GET fills the cache and the window starts there.
    advanceClock(WINDOW_MS);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).body.permissions.admin).toBe(false);

    await writeElsewhere(memberEntity.update({ orgId: org.id, userId: member.user.id }, { set: { role: 'admin' } }));
    advanceClock(WINDOW_MS - 2_500);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).body.permissions.admin).toBe(false);
    advanceClock(2_501);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).body.permissions.admin).toBe(true);

    await writeElsewhere(tokenEntity.update({ hash: sha256Hex(member.token) }, { set: { revokedAt: new Date().toISOString() } }));
    const stale = await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    expect(stale.status).toBe(200);
    advanceClock(WINDOW_MS);
    const revoked = await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toMatch(/revoked/);
  });

  it("this process's own writes apply at once: disabled, removed, revoked", async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Now' });
    const disabled = await org.member('read');
    const removed = await org.member('read');
    const revoked = await org.member('read');
    settle();
    for (const m of [disabled, removed, revoked]) {
      expect((await api.request('GET', `/spaces/${space.id}`, { token: m.token })).status).toBe(200);
      expect(roundTrips(await api.request('GET', `/spaces/${space.id}`, { token: m.token }))).toBe('1');
    }
    await run(memberEntity.update({ orgId: org.id, userId: disabled.user.id }, { set: { disabled: true } }));
    expect((await api.request('GET', `/spaces/${space.id}`, { token: disabled.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}`, { token: disabled.token })).status).toBe(404);
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${removed.user.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: removed.token })).status).toBe(404);
    const { revokeAccessToken } = await import('../shared/commands/tokens/revoke.ts');
    await revokeAccessToken(revoked.token);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: revoked.token })).status).toBe(401);
    // Added back: the membership shows at once too (a cached absence is forgotten as well).
    await addMember(org.id, removed.user, 'read');
    expect((await api.request('GET', `/spaces/${space.id}`, { token: removed.token })).status).toBe(200);
  });

  it('the window ends by whichever clock saw it pass: a wall clock stepping back, or standing time', async () => {
    freezeClock();
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Clocks' });
    const stepped = await org.member('read');
    const frozen = await org.member('read');
    const revokeElsewhere = (token: string) =>
      writeElsewhere(tokenEntity.update({ hash: sha256Hex(token) }, { set: { revokedAt: new Date().toISOString() } }));
    const status = async (token: string) => (await api.request('GET', `/spaces/${space.id}`, { token })).status;
    advanceClock(WINDOW_MS);

    // The wall clock steps back an hour (an NTP correction) while the window's time passes:
    // the revocation applies after the window all the same.
    expect(await status(stepped.token)).toBe(200);
    await revokeElsewhere(stepped.token);
    expect(await status(stepped.token)).toBe(200);
    stepWallClock(-60 * 60_000);
    advanceClock(WINDOW_MS);
    expect(await status(stepped.token)).toBe(401);

    // The time of day alone moves past the window (an instance frozen between invocations,
    // whose monotonic clock may not count that time): the window ends too.
    expect(await status(frozen.token)).toBe(200);
    await revokeElsewhere(frozen.token);
    expect(await status(frozen.token)).toBe(200);
    stepWallClock(WINDOW_MS);
    expect(await status(frozen.token)).toBe(401);
  });

  it('a time of day stepping back does not keep what this instance wrote out of the cache', async () => {
    freezeClock();
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Stepped writes' });
    const member = await org.member('read');
    // The membership written through this process (as a role change is), then the wall
    // clock steps back an hour.
    await run(memberEntity.update({ orgId: org.id, userId: member.user.id }, { set: { role: 'read' } }));
    stepWallClock(-60 * 60_000);
    settle();
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).status).toBe(200);
    // Kept after a second of real time: counted by the time of day, the write would be an
    // hour in the future, recent for an hour, and every read of it would go to storage.
    const commands = await storageCommandsOf(() => api.request('GET', `/spaces/${space.id}`, { token: member.token }));
    expect(commands.filter((name) => name !== 'UpdateItemCommand')).toEqual(['GetItemCommand']);
  });

  it("a token's expiry is checked on every request, cached record or not", async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Expiry' });
    const user = await newUser('Expiring');
    await addMember(org.id, user.user, 'read');
    const token = await createAccessToken(user.user.id, 'sso', { expiresAt: nowEpochSeconds() + 3 });
    settle();
    expect((await api.request('GET', `/spaces/${space.id}`, { token })).status).toBe(200);
    expect(roundTrips(await api.request('GET', `/spaces/${space.id}`, { token }))).toBe('1');
    advanceClock(2_000); // well within the cache window
    const expired = await api.request('GET', `/spaces/${space.id}`, { token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('AUTH_CACHE_SECONDS=0 turns the cache off: a change from another instance applies at once', async () => {
    process.env.AUTH_CACHE_SECONDS = '0';
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Off' });
    const member = await org.member('read');
    settle();
    await api.request('GET', `/spaces/${space.id}`, { token: member.token });
    await writeElsewhere(memberEntity.update({ orgId: org.id, userId: member.user.id }, { set: { role: 'admin' } }));
    expect((await api.request('GET', `/spaces/${space.id}`, { token: member.token })).body.permissions.admin).toBe(true);
  });
});
