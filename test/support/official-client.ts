import { expect } from 'vitest';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
// The package's own declarations do not resolve under NodeNext: its client type, from the file itself.
import type { Api } from '../../node_modules/@gitbook/api/dist/client.d.ts';
import type { TestApi } from './api.ts';

/** The official client (@gitbook/api) against the test API, as its users create it. */
export const officialClient = (api: TestApi, token: string) =>
  new GitBookAPI({ authToken: token, endpoint: api.url }) as unknown as Api<{ authToken?: string }>;

/** The error a client call fails with, as the client reports it (a call that succeeds fails the test). */
export async function clientFailure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(GitBookAPIError);
  return { code: (error as GitBookAPIError).code, message: (error as GitBookAPIError).errorMessage };
}
