import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSite, createSpace, createTranslation } from './support/factories.ts';
import { createRepo, useGitServer } from './support/git-server.ts';
import { installInOrg, listEvents, messages, publishScript, settled, uniqueName } from './support/integrations.ts';
import { buildFixture } from './fixtures/integrations/build.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { randomId } from '../shared/ids.ts';
import { startLoopbackServer } from './support/loopback-server.ts';

/**
 * The events the service emits to installed integrations (docs/integrations.md, Events),
 * each delivered to a published @gitbook/runtime script (test/fixtures/integrations/events,
 * which handles them all, logs what it received and answers 200) and read back through
 * `GET /integrations/{name}/events` and the event detail: payload, status, trace logs.
 * installation_setup at installation, space_installation_setup and space_content_updated
 * on merge: test/integration-runtime.test.ts.
 */
const api = useTestApi();
const gitServer = useGitServer();
let script: string;

beforeAll(async () => {
  script = await buildFixture('events');
});

type Detail = Awaited<ReturnType<typeof settled>>;

/** The payload the fixture logged (`payload {...}`: the event beyond type, eventId and installationId). */
function loggedPayload(detail: Detail): unknown {
  const line = messages(detail).find((m: string) => m.startsWith('payload '));
  expect(line, JSON.stringify(messages(detail))).toBeDefined();
  return JSON.parse(line!.slice('payload '.length));
}

/** An organization with the events fixture published and installed; `before` makes what must exist at installation. */
async function installed(before: (org: TestOrg) => Promise<void> = async () => {}) {
  const org = await newOrg();
  await before(org);
  const name = uniqueName('events');
  await publishScript(api, org, name, script);
  const installation = await installInOrg(api, org, name);
  return { org, name, installation };
}

const get = (org: TestOrg, path: string) => api.request('GET', path, { token: org.admin.token });
/** The id of the space's primary revision. */
const primaryRevision = async (org: TestOrg, spaceId: string): Promise<string> => (await get(org, `/spaces/${spaceId}`)).body.revision;

describe('site_installation_setup', () => {
  it('is sent at installation for each site of the organization, with siteId and status; the script\'s lines are the trace', async () => {
    const sites: { id: string }[] = [];
    const { org, name, installation } = await installed(async (org) => {
      sites.push(await createSite(api, org, { title: 'Alpha' }), await createSite(api, org, { title: 'Beta' }));
    });
    for (const site of sites) {
      const detail = await settled(api, org, name, 'site_installation_setup', { where: (p) => p.siteId === site.id });
      expect(detail.event).toMatchObject({ status: 'success', installationId: installation.id, integrationId: name });
      expect(detail.event.payload).toEqual({ type: 'site_installation_setup', eventId: detail.event.id, installationId: installation.id, siteId: site.id, status: 'active' });
      const lines = messages(detail);
      expect(lines).toContain('first script v1 handled site_installation_setup');
      expect(lines).toContain(`site installation of ${site.id}`);
      expect(loggedPayload(detail)).toEqual({ siteId: site.id, status: 'active' });
      // console.log is level info; the service's own lines follow the script's.
      expect(detail.trace.logs.find((l: { message: string }) => l.message === `site installation of ${site.id}`).level).toBe('info');
      expect(lines.at(-1)).toBe('Script answered HTTP 200');
    }
    expect(await listEvents(api, org, name, 'site_installation_setup')).toHaveLength(2);
  }, 60_000);
});

describe('installation_setup on a new script version', () => {
  it('is sent again to the installation with previous {status, configuration}, and the new script handles it', async () => {
    const { org, name, installation } = await installed();
    const first = await settled(api, org, name, 'installation_setup');
    expect(first.event.status).toBe('success');
    expect(first.event.payload).toEqual({ type: 'installation_setup', eventId: first.event.id, installationId: installation.id, status: 'active' });
    expect(messages(first)).toContain('first script v1 handled installation_setup');

    const second = await buildFixture('events', { SCRIPT_LABEL: '"second"' });
    expect(second).not.toBe(script);
    expect((await publishScript(api, org, name, second)).version).toBe(2);
    const resent = await settled(api, org, name, 'installation_setup', { where: (p) => p.eventId !== first.event.id });
    expect(resent.event.status).toBe('success');
    expect(resent.event.payload).toEqual({
      type: 'installation_setup', eventId: resent.event.id, installationId: installation.id, status: 'active',
      previous: { status: 'active', configuration: {} },
    });
    expect(messages(resent)).toContain('second script v2 handled installation_setup');
    expect(loggedPayload(resent)).toEqual({ status: 'active', previous: { status: 'active', configuration: {} } });

    // The same script published again (version 3) sends nothing.
    expect((await publishScript(api, org, name, second)).version).toBe(3);
    expect((await listEvents(api, org, name, 'installation_setup')).map((e) => e.id)).toEqual([resent.event.id, first.event.id]);
  }, 60_000);
});

describe('space_content_updated on the live-edit path', () => {
  it('is sent when a template is applied to the primary content, with the new primary revision; not for a change request', async () => {
    let space: { id: string; revision: string } | undefined;
    const { org, name, installation } = await installed(async (org) => {
      space = await createSpace(api, org, { title: 'Docs' });
    });
    const applied = await api.request('POST', `/spaces/${space!.id}/content/template`, { token: org.admin.token, body: { id: 'getting-started' } });
    expect(applied.status).toBe(201);
    const revision = (await get(org, `/spaces/${space!.id}`)).body.revision;
    expect(revision).not.toBe(space!.revision);
    expect((await get(org, `/spaces/${space!.id}/content`)).body.parents).toEqual([space!.revision]);

    const detail = await settled(api, org, name, 'space_content_updated', { where: (p) => p.spaceId === space!.id });
    expect(detail.event.status).toBe('success');
    expect(detail.event.payload).toEqual({
      type: 'space_content_updated', eventId: detail.event.id, installationId: installation.id, spaceId: space!.id, revisionId: revision, updatedBy: [],
    });
    expect(messages(detail)).toContain('first script v1 handled space_content_updated');
    expect(messages(detail)).toContain(`space installation of ${space!.id}`);
    expect(loggedPayload(detail)).toEqual({ spaceId: space!.id, revisionId: revision, updatedBy: [] });

    // Applied to a change request, the template leaves the primary content as it was: no event.
    const cr = await createChangeRequest(api, org, space!);
    const toCr = await api.request('POST', `/spaces/${space!.id}/content/template`, { token: org.admin.token, body: { id: 'changelog', changeRequestId: cr.id } });
    expect(toCr.status).toBe(201);
    expect((await get(org, `/spaces/${space!.id}`)).body.revision).toBe(revision);
    expect(await listEvents(api, org, name, 'space_content_updated')).toHaveLength(1);
  }, 60_000);
});

describe('space_content_updated when a translation run updates its result space', () => {
  it('is sent for the result space\'s new primary revision on a re-run; not on the run that creates the space', async () => {
    let space: { id: string } | undefined;
    const { org, name, installation } = await installed(async (org) => {
      space = await createSpace(api, org, { title: 'Handbook' });
    });
    const translation = await createTranslation(api, org, space!, { language: 'fr' });
    const runOnce = async () => {
      expect((await api.request('POST', `/orgs/${org.id}/translations/${translation.id}/run`, { token: org.admin.token })).status).toBe(204);
      for (let i = 0; i < 20; i++) {
        const current = (await get(org, `/orgs/${org.id}/translations/${translation.id}`)).body;
        if (current.status === 'completed') return current.result as { space: string; revision: string };
        await pollOnce('translations', 1);
      }
      throw new Error('the translation run did not complete');
    };
    const first = await runOnce();
    await pollOnce('integration-events', 10);
    expect(await listEvents(api, org, name, 'space_content_updated')).toHaveLength(0);

    const second = await runOnce();
    expect(second.space).toBe(first.space);
    expect(second.revision).not.toBe(first.revision);
    expect(await primaryRevision(org, second.space)).toBe(second.revision);
    const detail = await settled(api, org, name, 'space_content_updated', { where: (p) => p.spaceId === second.space });
    expect(detail.event.status).toBe('success');
    expect(detail.event.payload).toEqual({
      type: 'space_content_updated', eventId: detail.event.id, installationId: installation.id, spaceId: second.space, revisionId: second.revision, updatedBy: [],
    });
    expect(loggedPayload(detail)).toEqual({ spaceId: second.space, revisionId: second.revision, updatedBy: [] });
  }, 60_000);
});

describe('space_gitsync_started and space_gitsync_completed', () => {
  const importInto = async (org: TestOrg, spaceId: string, url: string, ref = 'refs/heads/main', timestamp?: string) => {
    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref, ...(timestamp ? { timestamp } : {}) } });
    expect(res.status).toBe(204);
  };
  const gitEvent = (org: TestOrg, name: string, type: string, spaceId: string) =>
    settled(api, org, name, type, { where: (p) => p.spaceId === spaceId, alsoPoll: ['git'] });

  it('surround a Git import: started with the primary revision before, completed success with the revision and commit of the import', async () => {
    let space: { id: string; revision: string } | undefined;
    const { org, name, installation } = await installed(async (org) => {
      space = await createSpace(api, org, { title: 'Synced' });
    });
    const repo = `events-${randomId(8).toLowerCase()}`;
    const head = await createRepo(gitServer, repo, { 'README.md': '# Imported\n\nFrom Git.\n', 'guide.md': '# Guide\n\nSteps.\n' });
    await importInto(org, space!.id, `${gitServer.url}/${repo}.git`);

    const completed = await gitEvent(org, name, 'space_gitsync_completed', space!.id);
    const info = (await get(org, `/spaces/${space!.id}/git/info`)).body;
    expect(info.operations.last).toMatchObject({ status: 'succeeded', commit: head, attempts: 1 });
    const revision = await primaryRevision(org, space!.id);
    expect(revision).not.toBe(space!.revision);
    expect(info.operations.last.revision).toBe(revision);
    expect(completed.event.status).toBe('success');
    expect(completed.event.payload).toEqual({
      type: 'space_gitsync_completed', eventId: completed.event.id, installationId: installation.id,
      spaceId: space!.id, state: 'success', revisionId: revision, commitId: head,
    });
    expect(messages(completed)).toContain('first script v1 handled space_gitsync_completed');
    expect(loggedPayload(completed)).toEqual({ spaceId: space!.id, state: 'success', revisionId: revision, commitId: head });

    const started = await gitEvent(org, name, 'space_gitsync_started', space!.id);
    expect(started.event.status).toBe('success');
    expect(started.event.payload).toEqual({
      type: 'space_gitsync_started', eventId: started.event.id, installationId: installation.id,
      spaceId: space!.id, revisionId: space!.revision, commitId: '',
    });
    expect(messages(started)).toContain('first script v1 handled space_gitsync_started');
    expect(messages(started)).toContain(`space installation of ${space!.id}`);
    expect(started.event.createdAt <= completed.event.createdAt).toBe(true);
    expect(await listEvents(api, org, name, 'space_gitsync_started')).toHaveLength(1);
    expect(await listEvents(api, org, name, 'space_gitsync_completed')).toHaveLength(1);
    // The import moved the primary content: space_content_updated too, before the sync completed.
    const updated = await gitEvent(org, name, 'space_content_updated', space!.id);
    expect(updated.event.payload).toEqual({
      type: 'space_content_updated', eventId: updated.event.id, installationId: installation.id, spaceId: space!.id, revisionId: revision, updatedBy: [],
    });
    expect(updated.event.createdAt <= completed.event.createdAt).toBe(true);
  }, 60_000);

  it('a sync that fails for good (a branch or a repository that does not exist) completes with state failure at once; one that may pass later, after the last attempt', async () => {
    const spaces: { id: string; revision: string }[] = [];
    const { org, name, installation } = await installed(async (org) => {
      for (const title of ['No branch', 'No repository', 'Server down']) spaces.push(await createSpace(api, org, { title }));
    });
    const repo = `events-${randomId(8).toLowerCase()}`;
    await createRepo(gitServer, repo, { 'README.md': '# Only main\n' });
    // A Git server that is down for now (503): worth retrying.
    const down = await startLoopbackServer((_req, res) => res.writeHead(503).end('maintenance'));
    const downUrl = `${down.url}/docs.git`;
    const cases = [
      { space: spaces[0]!, url: `${gitServer.url}/${repo}.git`, ref: 'refs/heads/missing', reason: /The branch missing does not exist/, final: true },
      { space: spaces[1]!, url: `${gitServer.url}/missing-${repo}.git`, ref: 'refs/heads/main', reason: /the server answered HTTP 404/, final: true },
      { space: spaces[2]!, url: downUrl, ref: 'refs/heads/main', reason: /the server answered HTTP 503/, final: false },
    ];
    try {
      for (const { space, url, ref, reason, final } of cases) {
        await importInto(org, space.id, url, ref);
        await pollOnce('git', 1);
        expect((await get(org, `/spaces/${space.id}/git/info`)).body.operations.last).toMatchObject({ status: 'failed', attempts: 1 });
        const spaceEvents = async (type: string) => (await listEvents(api, org, name, type)).filter((e) => e.payload.spaceId === space.id);
        expect(await spaceEvents('space_gitsync_started')).toHaveLength(1);
        // A refusal retrying cannot change is not retried: completed now. Otherwise the first attempt will be retried: not completed yet.
        if (!final) expect(await spaceEvents('space_gitsync_completed')).toHaveLength(0);

        const completed = await gitEvent(org, name, 'space_gitsync_completed', space.id);
        const last = (await get(org, `/spaces/${space.id}/git/info`)).body.operations.last;
        expect(last).toMatchObject({ status: 'failed', attempts: final ? 1 : 3 });
        expect(last.message).toMatch(reason);
        expect(completed.event.status).toBe('success');
        expect(completed.event.payload).toEqual({
          type: 'space_gitsync_completed', eventId: completed.event.id, installationId: installation.id,
          spaceId: space.id, state: 'failure', revisionId: '', commitId: '',
        });
        expect(loggedPayload(completed)).toEqual({ spaceId: space.id, state: 'failure', revisionId: '', commitId: '' });
        // Retries are one sync: one started event, with the (unchanged) primary revision.
        const started = await spaceEvents('space_gitsync_started');
        expect(started).toHaveLength(1);
        expect(started[0]!.payload).toMatchObject({ spaceId: space.id, revisionId: space.revision, commitId: '' });
        expect(await spaceEvents('space_gitsync_completed')).toHaveLength(1);
        expect(await primaryRevision(org, space.id)).toBe(space.revision);
      }
    } finally {
      await down.close();
    }
  }, 90_000);
  it('a sync skipped for an older timestamp completes with success and the primary revision it left in place', async () => {
    let space: { id: string } | undefined;
    const { org, name } = await installed(async (org) => {
      space = await createSpace(api, org, { title: 'Twice' });
    });
    const repo = `events-${randomId(8).toLowerCase()}`;
    await createRepo(gitServer, repo, { 'README.md': '# Imported\n\nFrom Git.\n' });
    const url = `${gitServer.url}/${repo}.git`;
    await importInto(org, space!.id, url, 'refs/heads/main', '2030-01-01T00:00:00.000Z');
    await gitEvent(org, name, 'space_gitsync_completed', space!.id);
    const revision = await primaryRevision(org, space!.id);

    await importInto(org, space!.id, url, 'refs/heads/main', '2029-01-01T00:00:00.000Z');
    let completed: Awaited<ReturnType<typeof listEvents>> = [];
    for (let i = 0; i < 30 && completed.length < 2; i++) {
      await pollOnce('git', 1);
      await pollOnce('integration-events', 10);
      completed = await listEvents(api, org, name, 'space_gitsync_completed');
    }
    const info = (await get(org, `/spaces/${space!.id}/git/info`)).body;
    expect(info.operations.last).toMatchObject({ status: 'skipped' });
    expect(await listEvents(api, org, name, 'space_gitsync_started')).toHaveLength(2);
    expect(completed).toHaveLength(2);
    const payloads = completed.map((e: { payload: Record<string, unknown> }) => e.payload);
    expect(payloads.every((p: Record<string, unknown>) => p.state === 'success' && p.revisionId === revision)).toBe(true);
    expect(await primaryRevision(org, space!.id)).toBe(revision);
  }, 60_000);
});
