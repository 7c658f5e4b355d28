import { expect } from 'vitest';
import { queryAll } from '../../../shared/db/operations.ts';
import type { Operation } from '../../../functions/catalogue.ts';
import { newOrg, type TestApi, type TestOrg } from '../api.ts';
import { useStarted } from '../lifecycle.ts';

/**
 * An organization with one of each representative resource, created through the API, so
 * hostile requests get past authentication and authorization to validation.
 */
export interface HostileFixture {
  org: TestOrg;
  /** Real values of the path parameters this fixture has; others get a well-formed unknown id. */
  params: Record<string, string>;
  /** Partitions compared before and after: nothing a refused request does may change them. */
  partitions: { partition: string; index?: 'gsi1' }[];
}

export async function hostileFixture(api: TestApi, title: string): Promise<HostileFixture> {
  const org = await newOrg(title);
  const as = (method: string, path: string, body: unknown) => created(api.request(method, path, { token: org.admin.token, body }), `${method} ${path}`);
  const space = await as('POST', `/orgs/${org.id}/spaces`, { title: 'Hostile space' });
  const collection = await as('POST', `/orgs/${org.id}/collections`, { title: 'Hostile collection' });
  const site = await as('POST', `/orgs/${org.id}/sites`, { title: 'Hostile site' });
  const changeRequest = await as('POST', `/spaces/${space.id}/change-requests`, { subject: 'Hostile change' });
  const comment = await as('POST', `/spaces/${space.id}/comments`, { body: { markdown: 'A comment' } });
  const team = await as('PUT', `/orgs/${org.id}/teams`, { title: 'Hostile team' });
  return {
    org,
    params: {
      organizationId: org.id, spaceId: space.id, collectionId: collection.id, siteId: site.id,
      changeRequestId: changeRequest.id, commentId: comment.id, teamId: team.id, userId: org.admin.user.id,
      emailDomain: 'example.com', pagePath: 'some/page', integrationName: 'hostile-integration', specSlug: 'hostile-spec',
    },
    partitions: [
      { partition: `ORG#${org.id}` }, { partition: `SPACE#${space.id}` }, { partition: `SITE#${site.id}` },
      { partition: `COLLECTION#${collection.id}` }, { partition: `USER#${org.admin.user.id}` },
      { partition: `ORG#${org.id}#SPACES`, index: 'gsi1' }, { partition: `ORG#${org.id}#SITES`, index: 'gsi1' },
    ],
  };
}

/** hostileFixture made before the file's tests (in a beforeAll); its fields answer in tests and later hooks. */
export function useHostileFixture(api: TestApi, title: string): HostileFixture {
  const current = useStarted('useHostileFixture()', async () => ({ ...(await hostileFixture(api, title)), close: async () => undefined }));
  return {
    get org() {
      return current().org;
    },
    get params() {
      return current().params;
    },
    get partitions() {
      return current().partitions;
    },
  };
}

async function created(response: ReturnType<TestApi['request']>, what: string): Promise<{ id: string }> {
  const res = await response;
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** The path of `op` with every parameter filled from the fixture (an unknown id otherwise). */
export function fillPath(op: Operation, params: Record<string, string>, override?: { name: string; raw: string }): string {
  return op.path.replace(/\{([A-Za-z0-9_]+)\+?\}/g, (_m, name: string) =>
    override?.name === name ? override.raw : encodeURIComponent(params[name] ?? 'unknown-id').replace(/%2F/g, '/'));
}

export const pathParamNames = (op: Operation): string[] => [...op.path.matchAll(/\{([A-Za-z0-9_]+)\+?\}/g)].map((m) => m[1]!);

/** Every record of the fixture's partitions, sorted, as JSON. */
export async function snapshot(fixture: HostileFixture): Promise<string> {
  const parts = await Promise.all(fixture.partitions.map(async (p) => {
    const records = await queryAll({ partition: p.partition, index: p.index });
    return records.map((r) => JSON.stringify(sortedKeys(r))).sort();
  }));
  return JSON.stringify(parts);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]));
}
