import { expect } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/db/client.ts';
import { config } from '../../shared/config.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import type { TestApi, TestOrg } from './api.ts';

/** A space (with its first, one-page revision) and a draft change request on it. */
export async function spaceWithChangeRequest(api: TestApi, org: TestOrg, title = 'Docs') {
  const space = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title, empty: true } });
  expect(space.status).toBe(201);
  const cr = await api.request('POST', `/spaces/${space.body.id}/change-requests`, { token: org.admin.token, body: { subject: 'Edit' } });
  expect(cr.status).toBe(201);
  return { space: space.body, cr: cr.body };
}

/** One batch of content changes on a change request; answers the change request's new revision. */
export async function editContent(api: TestApi, org: TestOrg, spaceId: string, crId: string, changes: unknown[]): Promise<string> {
  const res = await api.request('POST', `/spaces/${spaceId}/change-requests/${crId}/content`, { token: org.admin.token, body: { changes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.revision as string;
}

/**
 * Makes a revision the space's primary content. Merging change requests is another
 * group's work (not available to these tests yet), so the test writes the space record's
 * `revision` pointer directly, as a merge would.
 */
export async function makePrimary(spaceId: string, revisionId: string): Promise<void> {
  await db().send(new UpdateCommand({
    TableName: config.tableName,
    Key: spaceEntity.key({ spaceId }),
    UpdateExpression: 'SET #revision = :revision',
    ExpressionAttributeNames: { '#revision': 'revision' },
    ExpressionAttributeValues: { ':revision': revisionId },
  }));
}

/** Pages of a change request's content, flattened depth first, by title. */
export async function pagesByTitle(api: TestApi, org: TestOrg, spaceId: string, crId: string): Promise<Record<string, { id: string; path: string }>> {
  const res = await api.request('GET', `/spaces/${spaceId}/change-requests/${crId}/content/pages`, { token: org.admin.token });
  expect(res.status).toBe(200);
  const out: Record<string, { id: string; path: string }> = {};
  const walk = (pages: { id: string; title: string; path: string; pages: unknown[] }[]) => {
    for (const p of pages) {
      out[p.title] = { id: p.id, path: p.path };
      walk(p.pages as typeof pages);
    }
  };
  walk(res.body.pages);
  return out;
}
