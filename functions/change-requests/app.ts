import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { pdfRoutes } from './pdf.ts';
import { mergeRoutes } from './merge.ts';
import { reviewsRoutes } from './reviews.ts';
import { loadRootAccess, loadSpaceAccess } from '../../shared/policies/access.ts';
import type { RichDocument } from '../../shared/db/entities/change-request.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { createChangeRequest } from '../../shared/commands/change-requests/create.ts';
import { updateChangeRequest } from '../../shared/commands/change-requests/update.ts';
import { loadChangeRequest, presentChangeRequests } from '../../shared/presenters/read/change-request.ts';
import { listOrganizationChangeRequests, listSpaceChangeRequests } from '../../shared/presenters/read/change-requests.ts';

/**
 * Change requests (spec 4.4): create, list (space and organization), get by id or number,
 * update; merge and update-from-main (merge.ts), reviews (reviews.ts), PDF (pdf.ts).
 */
const routes = operationRoutes();

route(routes, op.listChangeRequestsForSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const { page, limit, ...filters } = c.req.valid('query');
  const { space } = await loadSpaceAccess(c.var.scope, spaceId);
  const { items, next } = await listSpaceChangeRequests(c.var.scope, space, filters, { limit, cursor: page });
  return c.json(presentList(items, next));
});

route(routes, op.createChangeRequest, async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { changeRequest, space } = await createChangeRequest(c.var.scope, {
    spaceId,
    subject: body.subject,
    description: body.description as RichDocument | undefined,
  });
  const [presented] = await presentChangeRequests(c.var.scope, [changeRequest], () => space.revision);
  c.header('Location', apiLocation(`/spaces/${spaceId}/change-requests/${changeRequest.id}`));
  return c.json(presented, 201);
});

route(routes, op.getChangeRequestById, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { changeRequest, space } = await loadChangeRequest(c.var.scope, spaceId, changeRequestId);
  const [presented] = await presentChangeRequests(c.var.scope, [changeRequest], () => space.revision);
  return c.json(presented);
});

route(routes, op.updateChangeRequestById, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { description, ...rest } = c.req.valid('json');
    const { changeRequest, space } = await updateChangeRequest(c.var.scope, spaceId, changeRequestId, {
      ...rest,
      ...(description !== undefined ? { description: description as RichDocument } : {}),
    });
    const [presented] = await presentChangeRequests(c.var.scope, [changeRequest], () => space.revision);
    return c.json(presented);
  },
);

route(routes, op.listChangeRequestsForOrganization, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { page, limit, ...filters } = c.req.valid('query');
    const { org } = await loadRootAccess(c.var.scope, organizationId);
    const { items, next } = await listOrganizationChangeRequests(c.var.scope, org, filters, { limit, cursor: page });
    return c.json(presentList(items, next));
  },
);

export const app = groupApp(op.group, routes, mergeRoutes, reviewsRoutes, pdfRoutes);
