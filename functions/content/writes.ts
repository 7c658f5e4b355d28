import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { ApiError } from '../../shared/http/errors.ts';
import { applyChanges } from '../../shared/content/changes.ts';
import { loadRevision } from '../../shared/content/revisions.ts';
import { changeRequestBase } from '../../shared/content/change-request-content.ts';
import { editChangeRequestContent } from '../../shared/content/edit-change-request.ts';
import { presentChangeRequests } from '../../shared/presenters/read/change-request.ts';
import { presentFile } from '../../shared/presenters/revision.ts';
import { presentContentUpdate } from '../../shared/presenters/content-update.ts';

/**
 * POST /spaces/{spaceId}/change-requests/{changeRequestId}/content (updateChangeRequestContent
 * in the public interface): a batch of 1 to 50 changes becomes one new revision of the change
 * request, or nothing at all.
 */
export const changeRequestWritesRoutes = operationRoutes();

route(changeRequestWritesRoutes, op.updateChangeRequestContent, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { changes } = c.req.valid('json');
    const { result: applied, changeRequest, content } = await editChangeRequestContent(c.var.scope, spaceId, changeRequestId, async (current, now) => {
      const result = await applyChanges(current.manifest, changes, {
        now,
        async revertSource(revisionId) {
          const source = await loadRevision(spaceId, revisionId ?? changeRequestBase(current.changeRequest));
          if (!source) throw new ApiError(400, `changes: no revision ${revisionId} in space ${spaceId}`);
          return source.manifest;
        },
      });
      return { manifest: result.manifest, result };
    });
    const [presented] = await presentChangeRequests(c.var.scope, [changeRequest], () => content.space.revision);
    // The public interface's two answers: the change request (compat, the default), or with the pages and files.
    if (c.req.valid('query').compat) return c.json(presented!);
    const insertedFiles = await Promise.all(applied.insertedFiles.map((file) => presentFile(file, { metadata: true })));
    return c.json(presentContentUpdate(changes, applied, presented!, insertedFiles));
  });
