import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { mergeChangeRequest, updateChangeRequestFromPrimary } from '../../shared/commands/change-requests-merge.ts';
import { changeRequestParams } from './schemas.ts';

/** POST .../merge and .../update (spec 4.4): three-way merges between the change request and primary content. */
export function mountMerge(app: GroupApp): void {
  app.post('/spaces/:spaceId/change-requests/:changeRequestId/merge', validate('param', changeRequestParams), async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { revision } = await mergeChangeRequest(c, spaceId, changeRequestId);
    return c.json({ revision: revision.id, result: 'merge' as const });
  });

  app.post('/spaces/:spaceId/change-requests/:changeRequestId/update', validate('param', changeRequestParams), async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { revision } = await updateChangeRequestFromPrimary(c, spaceId, changeRequestId);
    return c.json({ revision: revision.id, result: 'update' as const });
  });
}
