import { inject } from 'vitest';
import { useStarted } from './lifecycle.ts';
import { serveLocal } from '../../shared/local/http-server.ts';
import { randomId } from '../../shared/ids.ts';
import { queueNames, queueUrlVariable } from '../../shared/config.ts';
import { createQueueWithDlq } from '../../shared/local/provision.ts';
import { resetDbClient } from '../../shared/db/client.ts';
import { resetAwsClients } from '../../shared/aws/clients.ts';
import { addMember } from '../../shared/commands/members/add.ts';
import { createAccessToken } from '../../shared/commands/tokens/create.ts';
import { createOrganization } from '../../shared/commands/organizations/create.ts';
import { createUser } from '../../shared/commands/users/create.ts';
import type { Role } from '../../shared/http/schemas.ts';
import type { UserItem } from '../../shared/db/entities/user.ts';
import { assertContract } from './contract.ts';

export interface TestApi {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Raw body text (for malformed JSON tests). */
  rawBody?: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read response bodies freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Starts the local app (every group, as the Lambdas run them) on a random 127.0.0.1 port
 * in this test process, against the emulators of the global setup. The clock module is
 * shared with the server, so tests can move time.
 */
export async function startTestApi(): Promise<TestApi> {
  Object.assign(process.env, inject('awsEnv'));
  // Every file shares 127.0.0.1 and some send many requests with one token: the suite runs
  // with limits it never reaches (test/rate-limit.test.ts lowers them for its own requests).
  process.env.RATE_LIMIT_PER_MINUTE ??= '1000000';
  process.env.READER_RATE_LIMIT_PER_MINUTE ??= '1000000';
  resetDbClient();
  resetAwsClients();
  await useOwnQueues();
  const { createLocalApp } = await import('../../shared/local/server.ts');
  const { server, address: { port } } = await serveLocal({ fetch: createLocalApp().fetch, port: 0, hostname: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  process.env.PUBLIC_API_URL = url;
  return {
    url,
    async request(method, path, options = {}) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) query.set(k, String(v));
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(`${url}/v1${path}${query.size ? `?${query}` : ''}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // keep text
      }
      // Every answer is checked against the public description (test/support/contract.ts).
      assertContract(method, path, res.status, res.headers.get('content-type'), parsed);
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The test API of the current file (or describe block): starts it in a beforeAll and closes it
 * in an afterAll, both registered here. The handle is usable once that beforeAll ran, i.e. in
 * tests and in hooks registered after this call.
 */
export function useTestApi(): TestApi {
  const current = useStarted('useTestApi()', startTestApi);
  return {
    get url() {
      return current().url;
    },
    request: (method, path, options) => current().request(method, path, options),
    close: () => current().close(),
  };
}

/**
 * Queues of this test file alone. The table and bucket are shared by the whole run (every
 * test makes its own organizations), but a queue is not: a file that polls a queue must
 * only ever receive its own jobs, or parallel files would take each other's messages.
 */
let ownQueues: Promise<void> | undefined;
function useOwnQueues(): Promise<void> {
  return (ownQueues ??= (async () => {
    const prefix = `test-${randomId(8).toLowerCase()}`;
    for (const name of queueNames) process.env[queueUrlVariable(name)] = await createQueueWithDlq(`${prefix}-${name}`, 1);
  })());
}

/** The next file gets queues of its own (files share a worker process: test/support/file-state.ts). */
export function forgetOwnQueues(): void {
  ownQueues = undefined;
}

/** A user as the API presents it (shared/presenters/user.ts). */
export function presentedUser(api: TestApi, u: TestUser) {
  return {
    object: 'user',
    id: u.user.id,
    displayName: u.user.displayName,
    email: u.user.email,
    urls: { location: `${api.url}/v1/users/${u.user.id}` },
  };
}

export interface TestUser {
  user: UserItem;
  token: string;
}

/** A user with an access token; unique email per call. */
export async function newUser(name = 'User', email?: string): Promise<TestUser> {
  const suffix = randomId(8).toLowerCase();
  const user = await createUser({ displayName: `${name} ${suffix}`, email: email ?? `${name.toLowerCase().replace(/\s+/g, '.')}.${suffix}@example.com` });
  return { user, token: await createAccessToken(user.id, 'test') };
}

export interface TestOrg {
  id: string;
  admin: TestUser;
  /** Adds a member with the given org role and returns it with a token. */
  member(role: Role | null, name?: string): Promise<TestUser>;
}

/** A fresh organization with an admin. */
export async function newOrg(title = 'Test Org'): Promise<TestOrg> {
  const admin = await newUser('Admin');
  const org = await createOrganization({ title, owner: admin.user });
  return {
    id: org.id,
    admin,
    async member(role, name = `Member ${role ?? 'guest'}`) {
      const m = await newUser(name);
      await addMember(org.id, m.user, role);
      return m;
    },
  };
}
