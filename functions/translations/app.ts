import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { authorize } from '../../shared/policies/authorize.ts';
import { loadOrgAccess, loadSpaceAccess } from '../../shared/policies/access.ts';
import { queryPage } from '../../shared/db/operations.ts';
import { TRANSLATION_PREFIX, translationEntity } from '../../shared/db/entities/translation.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentTranslation, translationPermissions } from '../../shared/presenters/translation.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { createTranslation, deleteTranslation, updateTranslationInstructions } from '../../shared/commands/translations-write.ts';
import { readTranslation, requestTranslationRun } from '../../shared/commands/translations-run.ts';

/**
 * Translations (spec 4.16), base /orgs/{organizationId}/translations. Non-guest members read;
 * creating, updating, deleting and running need the create role (translationPermissions.edit).
 * Runs are done by the `translations` queue worker (shared/commands/translations-run.ts).
 */
const routes = operationRoutes();

const missing = (translationId: string) => notFound(`No translation found with id ${translationId}`);

route(routes, op.listTranslations, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).view, 'Guests may not list the translations of an organization');
  const result = await queryPage({ partition: `ORG#${organizationId}`, prefix: TRANSLATION_PREFIX, limit, cursor: page });
  const items = result.records.map((r) => presentTranslation(translationEntity.fromRecord(r), { role }));
  return c.json(presentList(items, result.next));
});

route(routes, op.createTranslation, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).edit, 'Creating a translation requires the create role');
  const sourceMissing = () => badRequest(`source.space: no space ${body.source.space} in this organization`);
  const { space } = await loadSpaceAccess(c, body.source.space).catch(() => { throw sourceMissing(); });
  if (space.orgId !== organizationId) throw sourceMissing();
  const translation = await createTranslation({
    orgId: organizationId, createdBy: c.get('caller').userId, source: body.source, language: body.language, instructions: body.instructions,
  });
  c.header('Location', apiLocation(`/orgs/${organizationId}/translations/${translation.id}`));
  return c.json(presentTranslation(translation, { role }), 201);
});

route(routes, op.getTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).view, 'Guests may not read the translations of an organization');
  const translation = await readTranslation(organizationId, translationId, false);
  if (!translation) throw missing(translationId);
  return c.json(presentTranslation(translation, { role }));
});

route(routes, op.updateTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const { instructions } = c.req.valid('json');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).edit, 'Updating a translation requires the create role');
  const translation = await updateTranslationInstructions(organizationId, translationId, instructions);
  if (!translation) throw missing(translationId);
  return c.json(presentTranslation(translation, { role }));
});

route(routes, op.deleteTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).edit, 'Deleting a translation requires the create role');
  const deleted = await deleteTranslation(organizationId, translationId);
  // 204: there was no such translation; 205: it was deleted (official interface). The result space stays.
  return c.body(null, deleted ? 205 : 204);
});

route(routes, op.runTranslation, async (c) => {
  const { organizationId, translationId } = c.req.valid('param');
  const { role } = await loadOrgAccess(c, organizationId);
  authorize(translationPermissions(role).edit, 'Running a translation requires the create role');
  if (!await requestTranslationRun(organizationId, translationId)) throw missing(translationId);
  return c.body(null, 204);
});

export const app = groupApp(op.group, routes);
