import { afterEach, describe, expect, it } from 'vitest';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { derivedKey } from '../shared/secrets/keys.ts';
import { resetServiceSecret, serviceSecret } from '../shared/secrets/service-secret.ts';
import { integrationSecret, resetIntegrationSecret } from '../shared/secrets/integration-secret.ts';
import { openSecrets, sealSecrets } from '../shared/integrations/secrets.ts';
import { newOrg, useTestApi } from './support/api.ts';
import { publishedSite, spaceWithPages, GUIDE_MARKDOWN } from './support/reader-site.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

/** Variables these tests change; restored after each test. */
const VARIABLES = ['SERVICE_SECRET', 'SERVICE_SECRET_ARN', 'INTEGRATION_SECRET', 'INTEGRATION_SECRET_ARN', 'DATA_DIR', 'AWS_LAMBDA_FUNCTION_NAME', 'AWS_ENDPOINT_URL_SECRETS_MANAGER'] as const;
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));

afterEach(() => {
  for (const v of VARIABLES) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  resetServiceSecret();
  resetIntegrationSecret();
});

describe('the service secret', () => {
  it('is random per process when nothing configures it, and stable within the process', async () => {
    for (const v of VARIABLES) delete process.env[v];
    resetServiceSecret();
    const first = await serviceSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await serviceSecret()).equals(first)).toBe(true);
    resetServiceSecret();
    expect((await serviceSecret()).equals(first)).toBe(false);
  });

  it('is created once in DATA_DIR (mode 0600) and read back after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    try {
      for (const v of VARIABLES) delete process.env[v];
      process.env.DATA_DIR = join(dir, 'nested');
      resetServiceSecret();
      const first = await serviceSecret();
      const file = join(dir, 'nested', 'service-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('utf8'));
      resetServiceSecret(); // a restart of npm start
      expect((await serviceSecret()).equals(first)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run a Lambda without Secrets Manager, and refuses a short operator secret', async () => {
    for (const v of VARIABLES) delete process.env[v];
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'docs-service-spaces';
    resetServiceSecret();
    await expect(serviceSecret()).rejects.toThrow(/SERVICE_SECRET_ARN is not set/);
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    process.env.SERVICE_SECRET = 'too short';
    resetServiceSecret();
    await expect(serviceSecret()).rejects.toThrow(/at least 32 characters/);
  });

  it('derives a different key per purpose and per context, none equal to the secret', async () => {
    for (const v of VARIABLES) delete process.env[v];
    process.env.SERVICE_SECRET = 'x'.repeat(40);
    resetServiceSecret();
    const keys = [
      await derivedKey('visitor-claims'), await derivedKey('share-link-sealing'), await derivedKey('cursor'),
      await derivedKey('site-visitor-key', 'a'), await derivedKey('site-visitor-key', 'b'), await derivedKey('webhook-signing', 'a'),
    ].map((k) => k.toString('hex'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain(Buffer.from('x'.repeat(40)).toString('hex'));
    // HKDF-SHA256 with the documented label: a deployment can reproduce its keys.
    const expected = Buffer.from(hkdfSync('sha256', Buffer.from('x'.repeat(40)), 'docs-service', 'cursor-v1:', 32)).toString('hex');
    expect(keys[2]).toBe(expected);
  });
});

describe('the integration secret', () => {
  const hkdf = (secret: Buffer | string, info: string) => Buffer.from(hkdfSync('sha256', secret, 'docs-service', info, 32));

  it('outside a Lambda is derived from the service secret, so a local run configures one secret', async () => {
    for (const v of VARIABLES) delete process.env[v];
    process.env.SERVICE_SECRET = 's'.repeat(40);
    resetServiceSecret();
    const root = await integrationSecret();
    expect(root.toString('utf8')).toBe(hkdf('s'.repeat(40), 'integration-root-v1:').toString('base64url'));
    // The integrations' keys come from it; the service's own keys from the service secret.
    expect((await derivedKey('webhook-signing', 'n')).equals(hkdf(root, 'webhook-signing-v1:n'))).toBe(true);
    expect((await derivedKey('cursor')).equals(hkdf('s'.repeat(40), 'cursor-v1:'))).toBe(true);
  });

  it('is all a function given only it holds: the integrations\' keys derive, the service\'s own do not', async () => {
    for (const v of VARIABLES) delete process.env[v];
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'docs-service-integration-events';
    process.env.INTEGRATION_SECRET = 'i'.repeat(40);
    resetServiceSecret();
    resetIntegrationSecret();
    expect((await derivedKey('integration-block-render')).equals(hkdf('i'.repeat(40), 'integration-block-render-v1:'))).toBe(true);
    for (const purpose of ['cursor', 'session', 'share-link-sealing', 'site-visitor-key', 'visitor-claims'] as const) {
      await expect(derivedKey(purpose, 'site'), purpose).rejects.toThrow(/SERVICE_SECRET_ARN is not set/);
    }
    // And a Lambda given neither says which one is missing.
    delete process.env.INTEGRATION_SECRET;
    resetIntegrationSecret();
    await expect(derivedKey('webhook-signing', 'n')).rejects.toThrow(/INTEGRATION_SECRET_ARN is not set/);
  });

  it('seals integration secrets that such a function opens; values sealed before open only where the service secret is', async () => {
    for (const v of VARIABLES) delete process.env[v];
    process.env.SERVICE_SECRET = 's'.repeat(40);
    resetServiceSecret();
    const sealed = await sealSecrets({ API_KEY: 'k' }, 'acme', '2026-11-28T00:00:00.000Z');
    expect(sealed.startsWith('k2.')).toBe(true);
    // A value sealed as before 2026-11-28: the service secret's credential-sealing key, no version.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', hkdf('s'.repeat(40), 'credential-sealing-v1:'), iv);
    cipher.setAAD(Buffer.from('integration-secrets\nacme\n2026-11-28T00:00:00.000Z'));
    const body = Buffer.concat([cipher.update(JSON.stringify({ OLD: 'o' }), 'utf8'), cipher.final()]);
    const legacy = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    expect(await openSecrets(legacy, 'acme', '2026-11-28T00:00:00.000Z')).toEqual({ OLD: 'o' });
    // Bound to the publication: another one opens nothing.
    expect(await openSecrets(sealed, 'acme', '2026-11-29T00:00:00.000Z')).toEqual({});

    // The runtime's Lambda: the integration secret (as the deployment derived it here) and nothing else.
    const root = await integrationSecret();
    for (const v of VARIABLES) delete process.env[v];
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'docs-service-integration-events';
    process.env.INTEGRATION_SECRET = root.toString('utf8');
    resetServiceSecret();
    resetIntegrationSecret();
    expect(await openSecrets(sealed, 'acme', '2026-11-28T00:00:00.000Z')).toEqual({ API_KEY: 'k' });
    expect(await openSecrets(legacy, 'acme', '2026-11-28T00:00:00.000Z')).toEqual({});
  });
});

describe('the service secret from Secrets Manager (SERVICE_SECRET_ARN)', () => {
  const calls: { target: string; body: Record<string, unknown> }[] = [];
  const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:docs-service-AbCdEf';
  const VALUE = 'a-secret-value-from-secrets-manager-0123456789';

  // Speaks the Secrets Manager JSON 1.1 protocol (X-Amz-Target: secretsmanager.GetSecretValue).
  const secretsManager = useLoopbackServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      calls.push({ target: String(req.headers['x-amz-target']), body });
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      if (body.SecretId !== ARN) {
        res.statusCode = 400;
        res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'Secrets Manager can’t find the specified secret.' }));
        return;
      }
      res.end(JSON.stringify({ ARN, Name: 'docs-service', SecretString: VALUE, VersionId: 'v1', CreatedDate: 1 }));
    });
  });

  it('reads the secret once per instance at run time, with the AWS SDK', async () => {
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = secretsManager.url;
    process.env.SERVICE_SECRET_ARN = ARN;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'docs-service-spaces';
    process.env.SERVICE_SECRET = 'ignored-because-the-arn-wins-0123456789';
    resetServiceSecret();
    calls.length = 0;
    expect((await serviceSecret()).toString('utf8')).toBe(VALUE);
    await derivedKey('cursor');
    await derivedKey('visitor-claims');
    expect(calls).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: ARN } }]);

    process.env.SERVICE_SECRET_ARN = `${ARN}-missing`;
    resetServiceSecret();
    await expect(serviceSecret()).rejects.toThrow(/can’t find/);
  });

  it('reads the integration secret the same way (INTEGRATION_SECRET_ARN), and only it for the integrations\' keys', async () => {
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = secretsManager.url;
    process.env.INTEGRATION_SECRET_ARN = ARN;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'docs-service-integration-events';
    delete process.env.SERVICE_SECRET_ARN;
    delete process.env.SERVICE_SECRET;
    resetServiceSecret();
    resetIntegrationSecret();
    calls.length = 0;
    const key = await derivedKey('webhook-signing', 'acme');
    await derivedKey('integration-secret-sealing');
    expect(key.equals(Buffer.from(hkdfSync('sha256', Buffer.from(VALUE), 'docs-service', 'webhook-signing-v1:acme', 32)))).toBe(true);
    expect(calls).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: ARN } }]);
  });
});

describe('no built-in secret signs anything', () => {
  const api = useTestApi();

  it('refuses a visitor token signed with the former built-in development secret', async () => {
    const org = await newOrg();
    const space = await spaceWithPages(api, org, 'Guarded', [GUIDE_MARKDOWN]);
    const site = await publishedSite(api, org, [space.id], 'visitor-auth');
    // What anyone reading the old source could compute for this site.
    const oldKey = Buffer.from(hkdfSync('sha256', 'local-development-visitor-claims-secret', 'docs-service', `site-visitor-key-v1:${site.id}`, 32)).toString('base64url');
    const forged = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(oldKey));
    const res = await fetch(`${site.url}?jwt_token=${forged}`);
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('Back up your data');

    // The key the site's admin reads from the service does open it.
    const keyRes = await fetch(`${site.url}/~visitor-key`, { headers: { authorization: `Bearer ${org.admin.token}` } });
    expect(keyRes.status).toBe(200);
    const { key } = await keyRes.json() as { key: string };
    expect(key).not.toBe(oldKey);
    const good = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    expect((await fetch(`${site.url}/getting-started?jwt_token=${good}`)).status).toBe(200);
  });
});
