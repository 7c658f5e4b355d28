import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadSpaceAccess } from '../../shared/policies/access.ts';
import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { enqueue } from '../../shared/jobs/enqueue.ts';
import { redactUrl } from '../../shared/git/repo.ts';
import { clearLegacyInstallation, newOperationId, presentGitInfo, putQueuedOperation, updateOperation } from '../../shared/git/state.ts';

/**
 * Git sync (spec 4.19): import and export answer 204 at once and queue a `git-sync` job for
 * the git worker (shared/git/sync.ts); GET info reports the outcome. The repository URL,
 * credentials included, travels only in the queue message; everything stored holds it
 * without credentials.
 */
import { sealCredentials, splitCredentials } from '../../shared/net/url-credentials.ts';

const routes = operationRoutes();

for (const [operation, declared] of [['import', op.importGitRepository], ['export', op.exportToGitRepository]] as const) {
  route(routes, declared, async (c) => {
    const { spaceId } = c.req.valid('param');
    const body = c.req.valid('json') as Record<string, unknown> & { url: string; ref: string };
    const access = await loadSpaceAccess(c.var.scope, spaceId);
    const { space } = access;
    // An import changes the content (edit: not while locked); an export only reads it.
    policies.space.authorize(access, operation === 'import' ? 'edit' : 'sync', space);
    const requestedAt = nowIso();
    const operationId = newOperationId(requestedAt, randomId(8));
    const requestedBy = c.get('caller').userId;
    await putQueuedOperation({
      id: operationId, spaceId, operation, status: 'queued', url: redactUrl(body.url), ref: body.ref, requestedAt, requestedBy, attempts: 0,
      ...(typeof body.timestamp === 'string' ? { timestamp: body.timestamp } : {}),
    });
    try {
      const { url, credentials } = splitCredentials(body.url);
      const sealedCredentials = credentials ? await sealCredentials(credentials, operationId) : undefined;
      await enqueue({ kind: 'git-sync', spaceId, operation, requestedAt, operationId, requestedBy, ...body, url, ...(sealedCredentials ? { sealedCredentials } : {}) });
    } catch (error) {
      await updateOperation(spaceId, operationId, { status: 'failed', message: 'The operation could not be queued', finishedAt: nowIso() });
      throw error;
    }
    return c.body(null, 204);
  });
}

route(routes, op.getSpaceGitInfo, async (c) => {
  const { spaceId } = c.req.valid('param');
  await loadSpaceAccess(c.var.scope, spaceId);
  return c.json(await presentGitInfo(spaceId));
});

route(routes, op.deleteLegacyGitInstallation, async (c) => {
  const { spaceId } = c.req.valid('param');
  const access = await loadSpaceAccess(c.var.scope, spaceId);
  policies.space.authorize(access, 'sync', access.space);
  await clearLegacyInstallation(spaceId);
  return c.body(null, 204);
});

export const app = groupApp(op.group, routes);
