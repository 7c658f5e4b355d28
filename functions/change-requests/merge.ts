import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { mergeChangeRequest, updateChangeRequestFromPrimary } from '../../shared/commands/change-requests/merge.ts';

/** POST .../merge and .../update (spec 4.4): three-way merges between the change request and primary content. */
export const mergeRoutes = operationRoutes();

route(mergeRoutes, op.mergeChangeRequest, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { revision } = await mergeChangeRequest(c.var.scope, spaceId, changeRequestId);
  return c.json({ revision: revision.id, result: 'merge' as const });
});

route(mergeRoutes, op.updateChangeRequest, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { revision } = await updateChangeRequestFromPrimary(c.var.scope, spaceId, changeRequestId);
  return c.json({ revision: revision.id, result: 'update' as const });
});
