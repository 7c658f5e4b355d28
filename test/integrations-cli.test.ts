import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { messages, settled } from './support/integrations.ts';
import { randomId } from '../shared/ids.ts';
import { integrationEntity } from '../shared/db/entities/integration.ts';

/**
 * The real `@gitbook/cli` (a devDependency whose postinstall, the cloudflared download, is
 * denied in package.json `allowScripts`) publishes to this service through its endpoint
 * setting: `gitbook publish` reads a gitbook-manifest.yaml, bundles the script with its own
 * esbuild and calls publishIntegration (`runtime: "v2"`); the published script then runs here.
 * The CLI runs as a child process with HOME and TMPDIR in a temporary directory, and a preload
 * that refuses (and records) every connection or lookup of a host outside the loopback range.
 */
const api = useTestApi();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'node_modules/@gitbook/cli/cli.js');

/** Preloaded into every Node process the CLI starts (NODE_OPTIONS): loopback only. */
const loopbackOnly = `
const net = require('node:net');
const dns = require('node:dns');
const fs = require('node:fs');
const loopback = (host) => host === 'localhost' || host === '::1' || /^127\\.\\d+\\.\\d+\\.\\d+$/.test(host);
const refuse = (what) => {
  fs.appendFileSync(process.env.EGRESS_LOG, what + '\\n');
  throw new Error('loopback-only: refused ' + what);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  let options = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof options !== 'object' || options === null) options = { port: options, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path === undefined && !loopback(options.host ?? 'localhost')) refuse('connect ' + options.host + ':' + options.port);
  return connect.apply(this, args);
};
for (const api of [dns, dns.promises]) {
  const lookup = api.lookup;
  api.lookup = function (host, ...rest) {
    if (!loopback(host)) refuse('lookup ' + host);
    return lookup.call(this, host, ...rest);
  };
}
`;

interface CliResult { code: number; stdout: string; stderr: string }

let work: string;
let home: string;
let egressLog: string;

/** Only what the CLI needs: no AWS variables, no real home, nothing of this process's config. */
function cliEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TMPDIR: path.join(work, 'tmp'),
    NODE_OPTIONS: `--require ${path.join(work, 'loopback-only.cjs')}`,
    EGRESS_LOG: egressLog,
    ...env,
  };
}

/** Runs `gitbook <args>` in the project directory; never rejects (the exit code is the result). */
function gitbook(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: path.join(work, 'project'), timeout: 60_000, env: cliEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Runs a `gitbook` command that does not end by itself (`tail`) until its output satisfies `done`, then interrupts it. */
function gitbookUntil(args: string[], env: Record<string, string>, done: (stdout: string) => boolean): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: path.join(work, 'project'), env: cliEnv(env) });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (done(stdout)) child.kill('SIGINT');
    });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

function manifest(name: string, org: TestOrg): string {
  // The fixture of test/integration-runtime.test.ts; its secret comes from the environment,
  // interpolated by the CLI (`${{ env.NAME }}`).
  return [
    `name: ${name}`,
    'title: Published by the CLI',
    'description: gitbook publish against this service',
    'script: ./src/index.js',
    'visibility: private',
    'scopes:',
    '  - space:metadata:read',
    `organization: ${org.id}`,
    'secrets:',
    '  GREETING: ${{ env.HELLO_GREETING }}',
    '',
  ].join('\n');
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'gitbook-cli-'));
  home = path.join(work, 'home');
  egressLog = path.join(work, 'egress.log');
  await Promise.all([mkdir(home), mkdir(path.join(work, 'tmp')), mkdir(path.join(work, 'project', 'src'), { recursive: true })]);
  await writeFile(path.join(work, 'loopback-only.cjs'), loopbackOnly);
  await writeFile(egressLog, '');
  await cp(path.join(root, 'test/fixtures/integrations/hello/index.js'), path.join(work, 'project/src/index.js'));
  // The project's dependencies (@gitbook/runtime), as an integration's own node_modules.
  await symlink(path.join(root, 'node_modules'), path.join(work, 'project/node_modules'), 'dir');
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('gitbook publish (@gitbook/cli) against this service', () => {
  it('publishes through its endpoint setting; the published script answers and handles its events', async () => {
    const org = await newOrg();
    await createSpace(api, org, { title: 'Existing' });
    const name = `cli-${randomId(10).toLowerCase()}`;
    await writeFile(path.join(work, 'project/gitbook-manifest.yaml'), manifest(name, org));

    // Token and endpoint from the environment (no `gitbook auth`).
    const first = await gitbook(['publish'], { GITBOOK_TOKEN: org.admin.token, GITBOOK_ENDPOINT: api.url, HELLO_GREETING: 'hi from the CLI' });
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(first.stdout).toContain(`Integration "${name}" published`);
    // Bundled by the CLI's own esbuild into TMPDIR, not the system's temporary directory.
    expect(existsSync(path.join(work, 'tmp/.gitbook', name, 'script.js'))).toBe(true);

    const published = await api.request('GET', `/integrations/${name}`, { token: org.admin.token });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({
      name, version: 1, title: 'Published by the CLI', description: 'gitbook publish against this service',
      visibility: 'private', scopes: ['space:metadata:read'], owner: { id: org.id },
    });
    // The CLI sends `runtime: "v2"`: accepted and stored as given.
    expect(await integrationEntity.get({ name })).toMatchObject({ runtime: 'v2', version: 1 });

    // The CLI-built script runs here: its public endpoint answers, with the interpolated secret.
    const res = await fetch(`${published.body.urls.publicEndpoint}/ping`, { method: 'POST', body: 'pong' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      integration: name, installation: null, method: 'POST', path: `/v1/integrations/${name}/public/ping`, body: 'pong', secret: 'hi from the CLI',
    });

    // Installed, it handles installation_setup with its installation token; its console lines are the trace.
    const installed = await api.request('POST', `/integrations/${name}/installations`, { token: org.admin.token, body: { organization: org.id } });
    expect(installed.status).toBe(201);
    const setup = await settled(api, org, name, 'installation_setup');
    expect(setup.event.status).toBe('success');
    const lines = messages(setup);
    expect(lines).toContain(`setup of ${installed.body.id} in ${org.id}`);
    expect(lines).toContain('allowed: listed 1 spaces');
    expect(lines).toContain('refused: HTTP 403');
    // `gitbook tail` prints the events and their trace from listIntegrationEvents / getIntegrationEvent.
    const tail = await gitbookUntil(['tail'], { GITBOOK_TOKEN: org.admin.token, GITBOOK_ENDPOINT: api.url, HELLO_GREETING: 'x' },
      (out) => out.includes('[warn] refused: HTTP 403'));
    expect(tail.code, tail.stderr + tail.stdout).toBe(0);
    expect(tail.stdout).toContain(`[success][${setup.event.createdAt}] ${JSON.stringify(setup.event.payload)}`);
    expect(tail.stdout).toContain('[info] allowed: listed 1 spaces');

    // `gitbook auth --endpoint --token` stores the setting in $HOME (here the temporary one);
    // a publish without the variables uses it, and updates the integration (version 2).
    const auth = await gitbook(['auth', '--endpoint', api.url, '--token', org.admin.token]);
    expect(auth.code, auth.stderr + auth.stdout).toBe(0);
    expect(auth.stdout).toContain('You are now authenticated as Admin');
    const config = JSON.parse(await readFile(path.join(home, '.config/gitbook-nodejs/config.json'), 'utf8'));
    expect(config.envs.default).toEqual({ endpoint: api.url, token: org.admin.token });
    const whoami = await gitbook(['whoami']);
    expect(whoami.stdout).toContain(`API: ${api.url}`);
    const second = await gitbook(['publish'], { HELLO_GREETING: 'hi again' });
    expect(second.code, second.stderr + second.stdout).toBe(0);
    const updated = await api.request('GET', `/integrations/${name}`, { token: org.admin.token });
    expect(updated.body.version).toBe(2);
    const again = await fetch(`${published.body.urls.publicEndpoint}/ping`);
    expect((await again.json()).secret).toBe('hi again');
    // The same source builds to the same script: no second installation_setup.
    const events = await api.request('GET', `/integrations/${name}/events`, { token: org.admin.token });
    expect(events.body.items.filter((e: { payload: { type: string } }) => e.payload.type === 'installation_setup')).toHaveLength(1);

    // Nothing but the loopback test API was reached or looked up.
    expect(await readFile(egressLog, 'utf8')).toBe('');
  }, 120_000);

  it('fails with the service\'s answer when the token may not publish', async () => {
    const org = await newOrg();
    const editor = await org.member('edit');
    const name = `cli-${randomId(10).toLowerCase()}`;
    await writeFile(path.join(work, 'project/gitbook-manifest.yaml'), manifest(name, org));
    const refused = await gitbook(['publish'], { GITBOOK_TOKEN: editor.token, GITBOOK_ENDPOINT: api.url, HELLO_GREETING: 'x' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`GitBook API failed with [403] ${api.url}/v1/integrations/${name}: Managing an integration requires the admin role`);
    expect((await api.request('GET', `/integrations/${name}`, { token: org.admin.token })).status).toBe(404);
    expect(await readFile(egressLog, 'utf8')).toBe('');
  }, 60_000);

  it('would go to its default endpoint without the setting: the preload refuses it (the check above is not vacuous)', async () => {
    const org = await newOrg();
    await writeFile(path.join(work, 'project/gitbook-manifest.yaml'), manifest(`cli-${randomId(10).toLowerCase()}`, org));
    const log = path.join(work, 'egress-default.log');
    const result = await gitbook(['publish'], { GITBOOK_TOKEN: org.admin.token, HELLO_GREETING: 'x', EGRESS_LOG: log });
    expect(result.code).not.toBe(0);
    expect((await readFile(log, 'utf8')).trim()).toBe('connect api.gitbook.com:443');
  }, 60_000);
});
