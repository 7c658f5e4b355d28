import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { randomId } from '../shared/ids.ts';
import { useTestApi } from './support/api.ts';

/**
 * The admin CLI (`npm run admin -- ...`, shared/local/admin-cli.ts) as an operator runs it,
 * as a child process against the test run's table (the endpoints of the global setup).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--disable-warning=ExperimentalWarning', 'shared/local/admin-cli.ts', ...args], {
      cwd: root, env: { ...process.env, ...inject('awsEnv'), POWERTOOLS_LOG_LEVEL: 'ERROR' }, timeout: 60_000,
    }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

describe('admin CLI: an id that is taken', () => {
  it('user create and org create say the user, email or organization already exists, and change nothing', async () => {
    const userId = `ada${randomId(8).toLowerCase()}`;
    const first = await admin('user', 'create', '--id', userId, '--email', `${userId}@example.com`, '--name', 'Ada Lovelace');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ id: userId, email: `${userId}@example.com`, displayName: 'Ada Lovelace' });

    const again = await admin('user', 'create', '--id', userId, '--email', `other.${userId}@example.com`, '--name', 'Someone Else');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`user create failed: User ${userId} already exists`);

    const orgId = `org${randomId(8).toLowerCase()}`;
    const org = await admin('org', 'create', '--id', orgId, '--title', 'Analytical Engines', '--owner', userId);
    expect(org.code, org.stderr).toBe(0);
    const orgAgain = await admin('org', 'create', '--id', orgId, '--title', 'Another', '--owner', userId);
    expect(orgAgain.code).toBe(1);
    expect(orgAgain.stderr.trim()).toBe(`org create failed: Organization ${orgId} already exists`);

    // Another account with the same email (any case) would make SSO sign-in pick either of them.
    const sameEmail = `copy${randomId(8).toLowerCase()}`;
    const copy = await admin('user', 'create', '--id', sameEmail, '--email', `${userId.toUpperCase()}@EXAMPLE.COM`, '--name', 'Ada Again');
    expect(copy.code).toBe(1);
    expect(copy.stderr.trim()).toBe(`user create failed: User ${userId} already has the email ${userId}@example.com`);

    // The first records are as they were.
    Object.assign(process.env, inject('awsEnv'));
    const { getUser } = await import('../shared/commands/users/create.ts');
    const { organizationEntity } = await import('../shared/db/entities/organization.ts');
    expect(await getUser(userId)).toMatchObject({ displayName: 'Ada Lovelace', email: `${userId}@example.com` });
    expect(await getUser(sameEmail)).toBeUndefined();
    expect(await organizationEntity.get({ orgId })).toMatchObject({ title: 'Analytical Engines' });
  }, 120_000);
});

describe('admin CLI: usage, bad arguments and unknown tokens', () => {
  const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at /m);

  it('--help prints the usage on stdout and exits 0; unknown options and missing values are usage errors (exit 2)', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await admin(flag);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: npm run admin -- <command> \[options\]\n/);
      expect(help.stdout).toContain('token revoke --token <token>');
      expect(help.stderr).toBe('');
    }
    const typo = await admin('user', 'create', '--emial', 'ada@example.com', '--name', 'Ada');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^Unknown option '--emial'/);
    expect(typo.stderr).toContain('Usage: npm run admin');
    noStackTrace(typo.stderr);
    const unquotedId = `ada${randomId(8).toLowerCase()}`;
    const unquoted = await admin('user', 'create', '--id', unquotedId, '--email', `${unquotedId}@example.com`, '--name', 'Ada', 'Lovelace');
    expect(unquoted.code).toBe(2);
    expect(unquoted.stderr).toMatch(/^Unexpected argument: Lovelace \(quote a value that holds spaces: --name "Ada Lovelace"\)\n/);
    Object.assign(process.env, inject('awsEnv'));
    const { getUser } = await import('../shared/commands/users/create.ts');
    expect(await getUser(unquotedId)).toBeUndefined();
    const missing = await admin('token', 'create', '--user');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Option '--user <value>' argument missing/);
    noStackTrace(missing.stderr);
  }, 120_000);

  it('refuses ids the API cannot name and titles PATCH /orgs would refuse, and stores nothing', async () => {
    Object.assign(process.env, inject('awsEnv'));
    const { getUser } = await import('../shared/commands/users/create.ts');
    const { organizationEntity } = await import('../shared/db/entities/organization.ts');
    const userId = `grace${randomId(8).toLowerCase()}`;
    expect((await admin('user', 'create', '--id', userId, '--email', `${userId}@example.com`, '--name', 'Grace')).code).toBe(0);

    for (const name of ['   ', 'n'.repeat(101)]) {
      const id = `name${randomId(8).toLowerCase()}`;
      const badName = await admin('user', 'create', '--id', id, '--email', `${id}@example.com`, '--name', name);
      expect(badName.code).toBe(2);
      expect(badName.stderr).toMatch(/^--name must be 1 to 100 characters\n/);
      expect(await getUser(id)).toBeUndefined();
    }

    const slash = `bad/${randomId(6)}`;
    const badUser = await admin('user', 'create', '--id', slash, '--email', 'g@example.com', '--name', 'G');
    expect(badUser.code).toBe(2);
    expect(badUser.stderr).toMatch(/^--id must be 1 to 100 letters, digits and \. _ : ~ -\n/);
    expect(await getUser(slash)).toBeUndefined();

    for (const id of [`under_score${randomId(4)}`, `dash${randomId(4)}-`, `a${'b'.repeat(63)}`, `sp ace${randomId(4)}`]) {
      const badOrg = await admin('org', 'create', '--id', id, '--title', 'Acme', '--owner', userId);
      expect(badOrg.code, id).toBe(2);
      expect(badOrg.stderr).toMatch(/^--id must be 1 to 63 letters, digits or inner hyphens \(it names the organization's hostname <id>\.<domain>\)\n/);
      expect(await organizationEntity.get({ orgId: id })).toBeUndefined();
    }

    const orgId = `org-${randomId(8).toLowerCase()}`;
    for (const [title, message] of [[' x ', '--title must be at least 2 characters'], ['x'.repeat(101), '--title must be at most 100 characters']]) {
      const bad = await admin('org', 'create', '--id', orgId, '--title', title!, '--owner', userId);
      expect(bad.code).toBe(2);
      expect(bad.stderr.split('\n')[0]).toBe(message);
    }
    expect(await organizationEntity.get({ orgId })).toBeUndefined();

    const org = await admin('org', 'create', '--id', orgId, '--title', '  Acme Docs  ', '--owner', userId);
    expect(org.code, org.stderr).toBe(0);
    expect(JSON.parse(org.stdout)).toEqual({ id: orgId, title: 'Acme Docs', hostname: `${orgId}.${process.env.PUBLISHED_DOMAIN ?? 'docs.localhost'}` });
    expect(await organizationEntity.get({ orgId })).toMatchObject({ title: 'Acme Docs' });
  }, 180_000);

  it('token revoke of a token that does not exist says so (exit 1) and stores nothing; a real one is revoked', async () => {
    Object.assign(process.env, inject('awsEnv'));
    const { tokenEntity } = await import('../shared/db/entities/token.ts');
    const { sha256Hex } = await import('../shared/ids.ts');
    const unknown = `dps_${randomId(40)}`;
    const res = await admin('token', 'revoke', '--token', unknown);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('token revoke failed: no access token matches the one given (nothing was revoked)');
    expect(res.stdout).toBe('');
    expect(await tokenEntity.get({ hash: sha256Hex(unknown) })).toBeUndefined();

    const userId = `linus${randomId(8).toLowerCase()}`;
    expect((await admin('user', 'create', '--id', userId, '--email', `${userId}@example.com`, '--name', 'Linus')).code).toBe(0);
    const token = (await admin('token', 'create', '--user', userId)).stdout.trim();
    const revoked = await admin('token', 'revoke', '--token', token);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/^revoked; /);
    expect(await tokenEntity.get({ hash: sha256Hex(token) })).toMatchObject({ userId, revokedAt: expect.any(String) });
  }, 120_000);
});

describe('admin CLI: listing and revoking a user\'s tokens without their secrets', () => {
  const api = useTestApi();

  it('token list shows labels and dates, never secrets; token revoke --user [--label] revokes them, and the API refuses them within the window', async () => {
    const userId = `hopper${randomId(8).toLowerCase()}`;
    expect((await admin('user', 'create', '--id', userId, '--email', `${userId}@example.com`, '--name', 'Grace Hopper')).code).toBe(0);
    const ci = (await admin('token', 'create', '--user', userId, '--label', 'ci')).stdout.trim();
    const laptop = (await admin('token', 'create', '--user', userId, '--label', 'laptop')).stdout.trim();
    for (const token of [ci, laptop]) expect((await api.request('GET', '/user', { token })).status).toBe(200);

    const listed = await admin('token', 'list', '--user', userId);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { label: 'ci', createdAt: expect.any(String) },
      { label: 'laptop', createdAt: expect.any(String) },
    ]);
    expect(listed.stdout).not.toContain(ci.slice(4));
    expect(listed.stdout).not.toContain(laptop.slice(4));

    const byLabel = await admin('token', 'revoke', '--user', userId, '--label', 'ci');
    expect(byLabel.code, byLabel.stderr).toBe(0);
    expect(byLabel.stdout.trim()).toBe(`revoked 1 token of ${userId} labelled ci; a running server stops accepting it within 5 s (AUTH_CACHE_SECONDS, its authentication cache)`);
    // The README's revocation window: another process's revocation applies within AUTH_CACHE_SECONDS.
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 7_000) {
      status = (await api.request('GET', '/user', { token: ci })).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(6_000);
    expect((await api.request('GET', '/user', { token: laptop })).status).toBe(200);

    const all = await admin('token', 'revoke', '--user', userId);
    expect(all.stdout.trim()).toMatch(new RegExp(`^revoked 1 token of ${userId}; `));
    const none = await admin('token', 'revoke', '--user', userId);
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe(`no active token of ${userId}; nothing to revoke`);
    const after = JSON.parse((await admin('token', 'list', '--user', userId)).stdout) as { label: string; revokedAt?: string }[];
    expect(after.map((t) => [t.label, typeof t.revokedAt])).toEqual([['ci', 'string'], ['laptop', 'string']]);

    const both = await admin('token', 'revoke', '--user', userId, '--token', laptop);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^--token and --user cannot be combined\n/);
    const neither = await admin('token', 'revoke');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/^--token <token> or --user <userId> is required\n/);
    const nobodyId = `nobody${randomId(6)}`;
    for (const args of [['token', 'list', '--user', nobodyId], ['token', 'create', '--user', nobodyId], ['org', 'create', '--title', 'Acme', '--owner', nobodyId]]) {
      const nobody = await admin(...args);
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toBe(`${args[0]} ${args[1]} failed: No user ${nobodyId}\n`);
    }
  }, 180_000);
});
