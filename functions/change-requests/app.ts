import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';
import { mountPdf } from './pdf.ts';
import { mountMerge } from './merge.ts';
import { mountReviews } from './reviews.ts';
import { validate } from '../../shared/http/validate.ts';
import { notFound } from '../../shared/http/errors.ts';
import { loadContentAccess, loadSpaceAccess } from '../../shared/policies/access.ts';
import type { RichDocument } from '../../shared/db/entities/change-request.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { createChangeRequest } from '../../shared/commands/change-requests-create.ts';
import { updateChangeRequest } from '../../shared/commands/change-requests-update.ts';
import { loadChangeRequest, presentChangeRequests } from '../../shared/commands/change-requests-load.ts';
import { listOrganizationChangeRequests, listSpaceChangeRequests } from '../../shared/commands/change-requests-list.ts';
import {
  changeRequestParams, createChangeRequestBody, listOrganizationChangeRequestsQuery, listSpaceChangeRequestsQuery,
  organizationParams, spaceParams, updateChangeRequestBody,
} from './schemas.ts';

/**
 * Change requests (spec 4.4): create, list (space and organization), get by id or number,
 * update; merge and update-from-main (merge.ts), reviews (reviews.ts), PDF (pdf.ts).
 */
export const app = createGroupApp();

app.get('/spaces/:spaceId/change-requests', validate('param', spaceParams), validate('query', listSpaceChangeRequestsQuery), async (c) => {
  const { spaceId } = c.req.valid('param');
  const { page, limit, ...filters } = c.req.valid('query');
  const { space } = await loadSpaceAccess(c, spaceId);
  const { items, next } = await listSpaceChangeRequests(c, space, filters, { limit, cursor: page });
  return c.json(presentList(items, next));
});

app.post('/spaces/:spaceId/change-requests', validate('param', spaceParams), validate('json', createChangeRequestBody), async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { changeRequest, space } = await createChangeRequest(c, {
    spaceId,
    subject: body.subject,
    description: body.description as RichDocument | undefined,
  });
  const [presented] = await presentChangeRequests(c, [changeRequest], () => space.revision);
  c.header('Location', apiLocation(`/spaces/${spaceId}/change-requests/${changeRequest.id}`));
  return c.json(presented, 201);
});

app.get('/spaces/:spaceId/change-requests/:changeRequestId', validate('param', changeRequestParams), async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { changeRequest, space } = await loadChangeRequest(c, spaceId, changeRequestId);
  const [presented] = await presentChangeRequests(c, [changeRequest], () => space.revision);
  return c.json(presented);
});

app.patch(
  '/spaces/:spaceId/change-requests/:changeRequestId',
  validate('param', changeRequestParams),
  validate('json', updateChangeRequestBody),
  async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { description, ...rest } = c.req.valid('json');
    const { changeRequest, space } = await updateChangeRequest(c, spaceId, changeRequestId, {
      ...rest,
      ...(description !== undefined ? { description: description as RichDocument } : {}),
    });
    const [presented] = await presentChangeRequests(c, [changeRequest], () => space.revision);
    return c.json(presented);
  },
);

app.get(
  '/orgs/:organizationId/change-requests',
  validate('param', organizationParams),
  validate('query', listOrganizationChangeRequestsQuery),
  async (c) => {
    const { organizationId } = c.req.valid('param');
    const { page, limit, ...filters } = c.req.valid('query');
    const { org, member } = await loadContentAccess(c, organizationId, undefined, []);
    if (!member || member.disabled) throw notFound(`No organization found with id ${organizationId}`);
    const { items, next } = await listOrganizationChangeRequests(c, org, filters, { limit, cursor: page });
    return c.json(presentList(items, next));
  },
);

mountMerge(app);
mountReviews(app);
mountPdf(app);
answerRemainingWith501(app, 'change-requests');
