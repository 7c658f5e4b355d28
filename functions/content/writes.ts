import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { ApiError } from '../../shared/http/errors.ts';
import { applyChanges } from '../../shared/content/changes.ts';
import { loadRevision } from '../../shared/content/revisions.ts';
import { changeRequestBase } from '../../shared/content/change-request-content.ts';
import { editChangeRequestContent } from '../../shared/content/edit-change-request.ts';
import { presentChangeRequests } from '../../shared/commands/change-requests-load.ts';
import { presentFile } from '../../shared/presenters/revision.ts';
import { changeRequestParams, contentChangesBody } from './schemas.ts';

/**
 * POST /spaces/{spaceId}/change-requests/{changeRequestId}/content (updateChangeRequestContent
 * in the public interface): a batch of 1 to 50 changes becomes one new revision of the change
 * request, or nothing at all.
 */
export function mountChangeRequestWrites(app: GroupApp): void {
  app.post('/spaces/:spaceId/change-requests/:changeRequestId/content',
    validate('param', changeRequestParams), validate('json', contentChangesBody), async (c) => {
      const { spaceId, changeRequestId } = c.req.valid('param');
      const { changes } = c.req.valid('json');
      const { result: applied, changeRequest, content } = await editChangeRequestContent(c, spaceId, changeRequestId, async (current, now) => {
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
      const [presented] = await presentChangeRequests(c, [changeRequest], () => content.space.revision);
      return c.json({
        changeRequest: presented,
        changes: applied.pages,
        insertedFiles: await Promise.all(applied.insertedFiles.map((file) => presentFile(file, { metadata: true }))),
      });
    });
}
