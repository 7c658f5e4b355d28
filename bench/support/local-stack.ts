import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { startEmulators, useEmulatorEndpoints, type Emulators } from '../../shared/local/emulators.ts';
import { provision } from '../../shared/local/provision.ts';
import { resetDbClient } from '../../shared/db/client.ts';
import { resetAwsClients } from '../../shared/aws/clients.ts';
import { createAccessToken } from '../../shared/commands/tokens/create.ts';
import { createOrganization } from '../../shared/commands/organizations/create.ts';
import { createUser } from '../../shared/commands/users/create.ts';
import type { OrganizationItem } from '../../shared/db/entities/organization.ts';
import type { UserItem } from '../../shared/db/entities/user.ts';

export interface BenchResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  bytes: number;
}

export interface BenchStack {
  emulators: Emulators;
  /** API base URL, ending in /v1. */
  base: string;
  user: UserItem;
  org: OrganizationItem;
  token: string;
  /** An API call as the bench user; throws on an error status other than 501 (not built yet). */
  call(method: string, path: string, body?: unknown): Promise<BenchResponse>;
  stop(): Promise<void>;
}

/**
 * What the content and Git benchmarks stand on: in-memory emulators on 127.0.0.1, the
 * table, queues and bucket named after the bench, the local app (every group) on a random
 * port in this process, and a user with an organization and a token.
 */
export async function startBenchStack(name: string): Promise<BenchStack> {
  const emulators = await startEmulators();
  let server: ServerType | undefined;
  try {
    useEmulatorEndpoints(emulators);
    process.env.TABLE_NAME = name;
    process.env.BUCKET_NAME = name;
    // One token sends thousands of requests a minute: the limits stay in the path, never reached.
    process.env.RATE_LIMIT_PER_MINUTE ??= '100000000';
    process.env.READER_RATE_LIMIT_PER_MINUTE ??= '100000000';
    resetDbClient();
    resetAwsClients();
    await provision({ prefix: name });
    const { createLocalApp } = await import('../../shared/local/server.ts');
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: createLocalApp().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    process.env.PUBLIC_API_URL = base.replace(/\/v1$/, '');
    const user = await createUser({ displayName: 'Bench', email: `${name}@example.com` });
    const org = await createOrganization({ title: 'Bench', owner: user });
    const token = await createAccessToken(user.id, 'bench');
    const running = server;
    return {
      emulators, base, user, org, token,
      async call(method, path, body) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        if (!res.ok && res.status !== 501) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
        return { status: res.status, body: text ? JSON.parse(text) : undefined, bytes: text.length };
      },
      async stop() {
        await new Promise<void>((r) => running.close(() => r()));
        await emulators.stop();
      },
    };
  } catch (error) {
    server?.close();
    await emulators.stop();
    throw error;
  }
}
