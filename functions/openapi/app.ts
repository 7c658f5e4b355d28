import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import type { OrgAccess } from '../../shared/policies/access.ts';
import { readAccess, writeAccess } from './access.ts';
import { versionRoutes } from './versions.ts';
import { openAPISpecEntity, type OpenAPISpecItem } from '../../shared/db/entities/openapi-spec.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentOpenAPISpec } from '../../shared/presenters/openapi-spec.ts';
import { createOpenAPISpec } from '../../shared/commands/openapi/create.ts';
import { deleteOpenAPISpec } from '../../shared/commands/openapi/delete.ts';
import { putOpenAPISpec } from '../../shared/commands/openapi/put.ts';
import { readOpenAPISpec } from '../../shared/commands/openapi/store.ts';
import { setOpenAPIVisibility } from '../../shared/commands/openapi/set-visibility.ts';

/**
 * OpenAPI specs (spec 4.6), base /orgs/{organizationId}/openapi, keyed by slug. Reading
 * needs a non-guest membership; writes need the `createOpenAPISpec` permission (role create
 * or above). Creating or replacing a source answers at once with `processingState: pending`;
 * the `openapi-process` job on the `jobs` queue fetches, parses and stores it.
 */
const routes = operationRoutes();

const present = (spec: OpenAPISpecItem, access: OrgAccess) =>
  presentOpenAPISpec(spec, { role: access.role });

route(routes, op.listOpenAPISpecs, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const access = await readAccess(c, organizationId);
  const result = await openAPISpecEntity.query.inOrg({ orgId: organizationId }).page({ limit, cursor: page });
  return c.json(presentList(result.items.map((s) => present(s, access)), result.next));
});

route(routes, op.createOpenAPISpec, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { slug, source } = c.req.valid('json');
  const access = await writeAccess(c, organizationId);
  const spec = await createOpenAPISpec(organizationId, slug, source);
  const body = present(spec, access);
  c.header('Location', body.urls.location);
  return c.json(body, 201);
});

route(routes, op.getOpenAPISpecBySlug, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const access = await readAccess(c, organizationId);
  const spec = await readOpenAPISpec(organizationId, specSlug);
  if (!spec) throw notFound(`No OpenAPI spec found with slug ${specSlug}`);
  return c.json(present(spec, access));
});

route(routes, op.createOrUpdateOpenAPISpecBySlug, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const { source } = c.req.valid('json');
  const access = await writeAccess(c, organizationId);
  const { spec, created } = await putOpenAPISpec(organizationId, specSlug, source);
  // 201 when the PUT created the spec, 200 when it replaced its source (official interface).
  return c.json(present(spec, access), created ? 201 : 200);
});

route(routes, op.deleteOpenAPISpecBySlug, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  await writeAccess(c, organizationId);
  await deleteOpenAPISpec(organizationId, specSlug);
  // 204 whether or not the spec existed (spec 4.6, 7.1).
  return c.body(null, 204);
});

route(routes, op.updateOpenAPISpecBySlug, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const { visibility } = c.req.valid('json');
  const access = await writeAccess(c, organizationId);
  const spec = await setOpenAPIVisibility(organizationId, specSlug, visibility);
  return c.json(present(spec, access));
});

export const app = groupApp(op.group, routes, versionRoutes);
