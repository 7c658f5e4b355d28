import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { ApiError, conflict } from '../../shared/http/errors.ts';
import { authorize } from '../../shared/policies/authorize.ts';
import { atLeast } from '../../shared/policies/roles.ts';
import { nowIso } from '../../shared/clock.ts';
import { transact } from '../../shared/db/operations.ts';
import { changeRequestEntity } from '../../shared/db/entities/change-request.ts';
import { changeRequestRevisionWrite } from '../../shared/commands/change-requests-update.ts';
import { applyChanges } from '../../shared/content/changes.ts';
import { prepareRevision, loadRevision } from '../../shared/content/revisions.ts';
import { changeRequestBase, loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { presentChangeRequests } from '../../shared/commands/change-requests-load.ts';
import { presentFile } from '../../shared/presenters/revision.ts';
import { changeRequestParams, contentChangesBody } from './schemas.ts';

/** A concurrent edit of the same change request moved its revision: apply the batch again. */
class ConcurrentEdit extends ApiError {
  constructor() {
    super(409, 'The change request was edited by another request at the same time; retry');
  }
}

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
      const userId = c.get('caller').userId;
      for (let attempt = 0; ; attempt++) {
        const content = await loadChangeRequestContent(c, spaceId, changeRequestId);
        const { changeRequest: cr, space, role } = content;
        authorize(atLeast(role, 'edit'), 'Editing content requires the edit role on the space');
        authorize(space.editMode !== 'locked', 'The space is locked: its content cannot be edited');
        if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`The change request is ${cr.status}; its content cannot change`);
        const now = nowIso();
        const applied = await applyChanges(content.manifest, changes, {
          now,
          async revertSource(revisionId) {
            const source = await loadRevision(spaceId, revisionId ?? changeRequestBase(cr));
            if (!source) throw new ApiError(400, `changes: no revision ${revisionId} in space ${spaceId}`);
            return source.manifest;
          },
        });
        const next = await prepareRevision({ spaceId, manifest: applied.manifest, parents: [cr.revision], type: 'edits', createdBy: userId });
        // Only the revision, updatedAt and contributors change, conditional on the revision
        // read: a concurrent PATCH of the subject or status is never written back.
        const { write, updated } = changeRequestRevisionWrite(cr, { revision: next.revision.id, now, contributor: userId });
        try {
          await transact([
            next.put,
            write,
          ], () => new ConcurrentEdit());
        } catch (error) {
          if (error instanceof ConcurrentEdit && attempt < 4) {
            c.get('loader').forget(changeRequestEntity.key({ spaceId, changeRequestId: cr.id }));
            continue;
          }
          throw error;
        }
        const [presented] = await presentChangeRequests(c, [updated], () => space.revision);
        return c.json({
          changeRequest: presented,
          changes: applied.pages,
          insertedFiles: await Promise.all(applied.insertedFiles.map((file) => presentFile(file, { metadata: true }))),
        });
      }
    });
}
