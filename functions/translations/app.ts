import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess, loadSpaceAccess } from '../../shared/policies/access.ts';
import { translationEntity } from '../../shared/db/entities/translation.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentTranslation } from '../../shared/presenters/translation.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { createTranslation } from '../../shared/commands/translations/create.ts';
import { deleteTranslation } from '../../shared/commands/translations/delete.ts';
import { updateTranslationInstructions } from '../../shared/commands/translations/update.ts';
import { readTranslation, requestTranslationRun } from '../../shared/commands/translations/run.ts';

/**
 * Translations (spec 4.16), base /orgs/{organizationId}/translations. Non-guest members read;
 * creating, updating, deleting and running need the create role (policies.translation 'edit').
 * Runs are done by the `translations` queue worker (shared/commands/translations/run.ts).
 */
const routes = operationRoutes();

const missing = (translationId: string) => notFound(`No translation found with id ${translationId}`);

route(routes, op.listTranslations, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.translation.authorize(access, 'read');
  const result = await translationEntity.query.inOrg({ orgId: organizationId }).page({ limit, cursor: page });
  const items = result.items.map((t) => presentTranslation(t, { role }));
  return c.json(presentList(items, result.next));
});

route(routes, op.createTranslation, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.translation.authorize(access, 'edit');
  const sourceMissing = () => badRequest(`source.space: no space ${body.source.space} in this organization`);
  const { space } = await loadSpaceAccess(c.var.scope, body.source.space).catch(() => { throw sourceMissing(); });
  if (space.orgId !== organizationId) throw sourceMissing();
  const translation = await createTranslation({
    orgId: organizationId, createdBy: c.get('caller').userId, source: body.source, language: body.language, instructions: body.instructions,
  });
  c.header('Location', apiLocation(`/orgs/${organizationId}/translations/${translation.id}`));
  return c.json(presentTranslation(translation, { role }), 201);
});

route(routes, op.getTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.translation.authorize(access, 'read');
  const translation = await readTranslation(organizationId, translationId, false);
  if (!translation) throw missing(translationId);
  return c.json(presentTranslation(translation, { role }));
});

route(routes, op.updateTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const { instructions } = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.translation.authorize(access, 'edit');
  const translation = await updateTranslationInstructions(organizationId, translationId, instructions);
  if (!translation) throw missing(translationId);
  return c.json(presentTranslation(translation, { role }));
});

route(routes, op.deleteTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  policies.translation.authorize(access, 'edit');
  const deleted = await deleteTranslation(organizationId, translationId);
  // 204: there was no such translation; 205: it was deleted (official interface). The result space stays.
  return c.body(null, deleted ? 205 : 204);
});

route(routes, op.runTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  policies.translation.authorize(access, 'edit');
  if (!await requestTranslationRun(organizationId, translationId)) throw missing(translationId);
  return c.body(null, 204);
});

export const app = groupApp(op.group, routes);
