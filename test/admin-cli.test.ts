import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { randomId } from '../shared/ids.ts';

/**
 * The admin CLI (`npm run admin -- ...`, shared/local/admin-cli.ts) as an operator runs it,
 * as a child process against the test run's table (the endpoints of the global setup).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'shared/local/admin-cli.ts', ...args], {
      cwd: root, env: { ...process.env, ...inject('awsEnv'), POWERTOOLS_LOG_LEVEL: 'ERROR' }, timeout: 60_000,
    }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

describe('admin CLI: an id that is taken', () => {
  it('user create and org create say the user or organization already exists, and change nothing', async () => {
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

    // The first records are as they were.
    Object.assign(process.env, inject('awsEnv'));
    const { getUser } = await import('../shared/commands/users/create.ts');
    const { organizationEntity } = await import('../shared/db/entities/organization.ts');
    expect(await getUser(userId)).toMatchObject({ displayName: 'Ada Lovelace', email: `${userId}@example.com` });
    expect(await organizationEntity.get({ orgId })).toMatchObject({ title: 'Analytical Engines' });
  }, 120_000);
});
