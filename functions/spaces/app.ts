import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, conflict, notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { policies } from '../../shared/policies/index.ts';
import { isExpired, loadCollectionAccess, loadContentAccess, loadRootAccess, loadSpaceAccess } from '../../shared/policies/access.ts';
import { spaceEntity, type SpaceItem } from '../../shared/db/entities/space.ts';
import { collectionEntity, type CollectionItem } from '../../shared/db/entities/collection.ts';
import { transact } from '../../shared/db/writes.ts';
import { nowIso } from '../../shared/clock.ts';
import { presentSpace } from '../../shared/presenters/space.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { keepsPlace, listChildren, positionAmong } from '../../shared/commands/content/tree.ts';
import { placedUnder, relocate, transactAsRead } from '../../shared/commands/content/move.ts';
import { softDeleteSpaceWrite } from '../../shared/commands/spaces/delete.ts';
import { newSpace, visibilityAt } from '../../shared/commands/spaces/create.ts';
import { presentReadable } from '../../shared/presenters/read/readable.ts';
import { loadRevision, prepareRevision } from '../../shared/content/revisions.ts';
import { initialManifest } from '../../shared/content/initial.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { sliceChars } from '../../shared/http/string-length.ts';
import {
  brokenInChangeRequests,  linksResponse, revisionInSpace, revisionLinks } from '../../shared/content/links/responses.ts';

/** Spaces (spec 4.2) and space creation (createSpace of the public interface). */
const routes = operationRoutes();

route(routes, op.getSpaceById, async (c) => {
  const { spaceId } = c.req.valid('param');
  const { shareKey } = c.req.valid('query');
  const { space, role, org } = await loadSpaceAccess(c.var.scope, spaceId);
  return c.json(presentSpace(space, { role, org, shareKey }));
});

route(routes, op.updateSpaceById, async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadSpaceAccess(c.var.scope, spaceId);
  const { space, role, org } = access;
  const administrative = body.editMode !== undefined || body.defaultLevel !== undefined || body.mergeRules !== undefined;
  policies.space.authorize(access, administrative ? 'admin' : 'update', space);
  const { emoji, ...rest } = body;
  const updated: SpaceItem = { ...space, ...rest, updatedAt: nowIso() };
  if (emoji !== undefined) {
    if (emoji) updated.emoji = emoji;
    else delete updated.emoji;
  }
  await putIfUnchanged(updated, space.updatedAt);
  return c.json(presentSpace(updated, { role, org }));
});

route(routes, op.deleteSpaceById, async (c) => {
  const { spaceId } = c.req.valid('param');
  const record = await c.get('loader').get(spaceEntity.key({ spaceId }));
  const stored = record ? spaceEntity.fromRecord(record) : undefined;
  if (!stored || stored.deletedAt || isExpired(stored)) return c.body(null, 204);
  const access = await loadSpaceAccess(c.var.scope, spaceId);
  const { space } = access;
  policies.space.authorize(access, 'admin', space);
  await transact([softDeleteSpaceWrite(space).write], () => conflict('The space was changed by another request; retry'));
  // 205: the space has been deleted (204 says it did not exist).
  return c.body(null, 205);
});

route(routes, op.restoreSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const access = await loadSpaceAccess(c.var.scope, spaceId, { deleted: 'include' });
  const { space, org } = access;
  policies.space.authorize(access, 'admin', space);
  if (!space.deletedAt) throw conflict('The space is not deleted');
  // Back where it was (under the collection as it is now, which may have moved meanwhile),
  // or at the root when its collection is gone.
  const parentRecord = space.parent ? await c.get('loader').get(collectionEntity.key({ collectionId: space.parent })) as CollectionItem | undefined : undefined;
  const parent = parentRecord && parentRecord.orgId === space.orgId ? parentRecord : undefined;
  const restored: SpaceItem = { ...space, updatedAt: nowIso() };
  delete restored.deletedAt;
  delete restored.expiresAt;
  if (parent) restored.ancestors = [...parent.ancestors, parent.id];
  else {
    delete restored.parent;
    restored.ancestors = [];
    restored.position = positionAmong(await listChildren(space.orgId, undefined), space.id, undefined);
    restored.visibility = visibilityAt(space.visibility, undefined);
  }
  await transactAsRead([
    spaceEntity.replace({ spaceId: space.id }, restored, (w) => w.and(w.eq('updatedAt', space.updatedAt), w.eq('deletedAt', space.deletedAt!))),
    ...(parent ? [placedUnder(parent, restored.updatedAt)] : []),
  ]);
  const after = await loadContentAccess(c.var.scope, restored.orgId, restored, restored.ancestors);
  return c.json(presentSpace(restored, { role: after.role, org }));
});

route(routes, op.duplicateSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const { space, org } = await loadSpaceAccess(c.var.scope, spaceId);
  const parent = space.parent ? await loadCollectionAccess(c.var.scope, space.parent) : undefined;
  if (parent) policies.collection.authorize(parent, 'create');
  else policies.organization.authorize(await loadRootAccess(c.var.scope, space.orgId), 'createContent');
  const siblings = await listChildren(space.orgId, space.parent);
  const copy: SpaceItem = {
    ...newSpace({
      orgId: space.orgId, createdBy: c.get('caller').userId, parent: space.parent,
      ancestors: parent ? [...parent.collection.ancestors, parent.collection.id] : [],
      // Right after the original.
      position: positionAmong(siblings, '', { after: { type: 'space', space: space.id } }),
      title: sliceChars(`${space.title} (copy)`, 50), emoji: space.emoji, language: space.language, editMode: space.editMode,
    }),
    visibility: space.visibility,
    defaultLevel: space.defaultLevel,
    mergeRules: space.mergeRules,
  };
  // The copy starts from the original's content: a new revision record naming the same
  // manifest blob, so no document or file is copied (blobs are content-addressed).
  const original = space.revision ? await loadRevision(space.id, space.revision) : undefined;
  const first = await prepareRevision({
    spaceId: copy.id, manifest: original?.manifest ?? await initialManifest(true), parents: [], type: 'initial', createdBy: copy.createdBy,
  });
  copy.revision = first.revision.id;
  await transactAsRead([
    spaceEntity.create({ spaceId: copy.id }, copy),
    first.put,
    ...(parent ? [placedUnder(parent.collection, copy.createdAt)] : []),
  ]);
  const access = await loadContentAccess(c.var.scope, copy.orgId, copy, copy.ancestors);
  c.header('Location', apiLocation(`/spaces/${copy.id}`));
  return c.json(presentSpace(copy, { role: access.role, org }), 201);
});

route(routes, op.moveSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadSpaceAccess(c.var.scope, spaceId);
  const { space, org } = access;
  policies.space.authorize(access, 'admin', space);
  const parentId = body.parent === undefined ? space.parent : body.parent ?? undefined;
  const parent = await targetParent(c, space.orgId, parentId, 'parent');
  const siblings = await listChildren(space.orgId, parentId);
  if (parentId === space.parent && keepsPlace(siblings, space.id, body.position)) {
    throw conflict('Operation would not result in any update');
  }
  const position = positionAmong(siblings, space.id, body.position);
  const moved = (await relocate({ type: 'space', item: space }, { orgId: space.orgId, parent, position })).item as SpaceItem;
  const after = await loadContentAccess(c.var.scope, moved.orgId, moved, moved.ancestors);
  return c.json(presentSpace(moved, { role: after.role, org }));
});

route(routes, op.transferSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadSpaceAccess(c.var.scope, spaceId);
  const { space } = access;
  policies.space.authorize(access, 'admin', space);
  let orgId = body.organization ?? space.orgId;
  if (body.collection) {
    const record = await c.get('loader').get(collectionEntity.key({ collectionId: body.collection }));
    if (!record) throw notFound(`No collection found with id ${body.collection}`);
    if (body.organization && record.orgId !== body.organization) {
      throw badRequest(`collection: collection ${body.collection} is not in organization ${body.organization}`);
    }
    orgId = record.orgId as string;
  }
  const parentId = body.collection;
  if (orgId === space.orgId && parentId === space.parent) throw conflict('Transfer would not result in any update');
  await loadRootAccess(c.var.scope, orgId);
  const parent = await targetParent(c, orgId, parentId, 'collection');
  const position = positionAmong(await listChildren(orgId, parentId), space.id, undefined);
  const moved = (await relocate({ type: 'space', item: space }, { orgId, parent, position })).item as SpaceItem;
  const after = await loadContentAccess(c.var.scope, moved.orgId, moved, moved.ancestors);
  return c.json(presentSpace(moved, { role: after.role, org: after.org }));
});

/**
 * GET /spaces/{spaceId}/links (listSpaceLinks): every link of the space's primary content,
 * checked against that revision (shared/content/links), with `stats`.
 */
route(routes, op.listSpaceLinks, async (c) => {
  const { spaceId } = c.req.valid('param');
  const content = await loadSpaceContent(c.var.scope, spaceId);
  const revision = revisionInSpace(content);
  const links = await revisionLinks(revision);
  const fromChangeRequests = await brokenInChangeRequests(c.var.scope, revision, links);
  return c.json(linksResponse(revision, links, c.req.valid('query'), fromChangeRequests, `links:${revision.manifestHash}`));
});

route(routes, op.listSpacesInOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const { org } = await loadRootAccess(c.var.scope, organizationId);
  // Oldest first: creation order is stable under concurrent inserts, so cursors never skip.
  const result = await spaceEntity.query.byOrg({ orgId: organizationId }).page({ limit, cursor: page });
  const items = await presentReadable(c.var.scope, org, result.items, (space, role) => presentSpace(space, { role, org }));
  return c.json(presentList(items, result.next));
});

route(routes, op.createSpace, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  await loadRootAccess(c.var.scope, organizationId);
  const parent = await targetParent(c, organizationId, body.parent, 'parent');
  const ancestors = parent ? [...parent.ancestors, parent.id] : [];
  const siblings = await listChildren(organizationId, body.parent);
  const space = newSpace({
    orgId: organizationId, createdBy: c.get('caller').userId, parent: body.parent, ancestors,
    position: positionAmong(siblings, '', undefined),
    title: body.title, emoji: body.emoji, language: body.language, editMode: body.editMode,
  });
  // The space and its first revision are written together: a space always has content.
  const initial = await prepareRevision({
    spaceId: space.id, manifest: await initialManifest(body.empty ?? false), parents: [], type: 'initial', createdBy: space.createdBy,
  });
  space.revision = initial.revision.id;
  await transactAsRead([
    spaceEntity.create({ spaceId: space.id }, space),
    initial.put,
    ...(parent ? [placedUnder(parent, space.createdAt)] : []),
  ]);
  const access = await loadContentAccess(c.var.scope, organizationId, space, ancestors);
  c.header('Location', apiLocation(`/spaces/${space.id}`));
  return c.json(presentSpace(space, { role: access.role, org: access.org }), 201);
});

/**
 * The new parent collection in `orgId` as read (none for the root), checking the caller may
 * create there (the create role on the collection, or on the organization for the root).
 */
async function targetParent(c: Context<AppEnv>, orgId: string, parentId: string | undefined, field: string): Promise<CollectionItem | undefined> {
  if (!parentId) {
    policies.organization.authorize(await loadRootAccess(c.var.scope, orgId), 'createContent');
    return undefined;
  }
  const parent = await loadCollectionAccess(c.var.scope, parentId).catch(() => {
    throw badRequest(`${field}: no collection ${parentId} in this organization`);
  });
  if (parent.collection.orgId !== orgId) throw badRequest(`${field}: no collection ${parentId} in this organization`);
  policies.collection.authorize(parent, 'create');
  return parent.collection;
}

/** Replaces the space record if no other request changed it since it was read (409 otherwise). */
async function putIfUnchanged(space: SpaceItem, previousUpdatedAt: string) {
  await transact([
    spaceEntity.replace({ spaceId: space.id }, space, (w) => w.eq('updatedAt', previousUpdatedAt)),
  ], () => conflict('The space was changed by another request; retry'));
}

export const app = groupApp(op.group, routes);
