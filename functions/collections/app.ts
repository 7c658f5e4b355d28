import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, conflict } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadCollectionAccess, loadRootAccess } from '../../shared/policies/access.ts';
import { collectionEntity, type CollectionItem } from '../../shared/db/entities/collection.ts';
import { ConditionFailed } from '../../shared/db/errors.ts';
import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { presentCollection } from '../../shared/presenters/collection.ts';
import { presentSpace } from '../../shared/presenters/space.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { listChildren, positionAmong, keepsPlace } from '../../shared/commands/content/tree.ts';
import { placedUnder, relocate, transactAsRead } from '../../shared/commands/content/move.ts';
import { deleteCollectionTree } from '../../shared/commands/collections/delete.ts';
import { retryOnConflict } from '../../shared/commands/retry.ts';
import { presentReadable } from '../../shared/presenters/read/readable.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { run } from '../../shared/db/writes.ts';

/** Collections (spec 4.1): folders of spaces and collections inside an organization. */
const routes = operationRoutes();

route(routes, op.getCollectionById, async (c) => {
  const { collectionId } = c.req.valid('param');
  const { collection, role } = await loadCollectionAccess(c.var.scope, collectionId);
  return c.json(presentCollection(collection, { role }));
});

/**
 * PATCH: the fields given over the collection as stored, conditional on it being unchanged
 * since read; a concurrent write (another PATCH, a space created or moved into it, which moves
 * its updatedAt) makes it apply again to a fresh read rather than fail.
 */
route(routes, op.updateCollectionById, async (c) => {
  const { collectionId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { updated, role } = await retryOnConflict(async (attempt) => {
    if (attempt > 0) c.get('loader').forget(collectionEntity.key({ collectionId }));
    const access = await loadCollectionAccess(c.var.scope, collectionId);
    const { collection } = access;
    policies.collection.authorize(access, 'admin', collection);
    const next: CollectionItem = { ...collection, ...body, updatedAt: nowIso() };
    await run(collectionEntity.replace({ collectionId }, next, (w) => w.eq('updatedAt', collection.updatedAt))).catch(rethrowConflict);
    return { updated: next, role: access.role };
  });
  return c.json(presentCollection(updated, { role }));
});

route(routes, op.deleteCollectionById, async (c) => {
  const { collectionId } = c.req.valid('param');
  const record = await c.get('loader').get(collectionEntity.key({ collectionId }));
  if (!record) return c.body(null, 204);
  const access = await loadCollectionAccess(c.var.scope, collectionId);
  const { collection } = access;
  policies.collection.authorize(access, 'admin', collection);
  await deleteCollectionTree(collection);
  return c.body(null, 204);
});

route(routes, op.listSpacesInCollectionById, async (c) => {
  const { collectionId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const { collection, org } = await loadCollectionAccess(c.var.scope, collectionId);
  const result = await spaceEntity.query.children({ orgId: collection.orgId, parent: collection.id }).page({ limit, cursor: page });
  const items = await presentReadable(c.var.scope, org, result.items, (space, role) => presentSpace(space, { role, org }));
  return c.json(presentList(items, result.next));
});

route(routes, op.moveCollection, async (c) => {
  const { collectionId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadCollectionAccess(c.var.scope, collectionId);
  const { collection, role } = access;
  policies.collection.authorize(access, 'admin', collection);
  const parentId = body.parent === undefined ? collection.parent : body.parent ?? undefined;
  let parentRecord: CollectionItem | undefined;
  if (parentId) {
    if (parentId === collection.id) throw badRequest('parent: a collection cannot be its own parent');
    const parent = await loadCollectionAccess(c.var.scope, parentId).catch(() => {
      throw badRequest(`parent: no collection ${parentId} in this organization`);
    });
    if (parent.collection.orgId !== collection.orgId) throw badRequest(`parent: no collection ${parentId} in this organization`);
    if (parent.collection.ancestors.includes(collection.id)) throw badRequest('parent: a collection cannot move into its own descendant');
    policies.collection.authorize(parent, 'create', parent.collection);
    parentRecord = parent.collection;
  }
  const siblings = await listChildren(collection.orgId, parentId);
  if (parentId === collection.parent && keepsPlace(siblings, collection.id, body.position)) {
    throw conflict('Operation would not result in any update');
  }
  const position = positionAmong(siblings, collection.id, body.position);
  const moved = await relocate({ type: 'collection', item: collection }, { orgId: collection.orgId, parent: parentRecord, position });
  return c.json(presentCollection(moved.item as CollectionItem, { role }));
});

route(routes, op.transferCollection, async (c) => {
  const { collectionId } = c.req.valid('param');
  const { organization } = c.req.valid('json');
  const access = await loadCollectionAccess(c.var.scope, collectionId);
  const { collection, role } = access;
  policies.collection.authorize(access, 'admin', collection);
  if (organization === collection.orgId) throw conflict('Transfer would not result in any update');
  const target = await loadRootAccess(c.var.scope, organization);
  policies.organization.authorize(target, 'createContent', target.org);
  const siblings = await listChildren(organization, undefined);
  const position = positionAmong(siblings, collection.id, undefined);
  const moved = await relocate({ type: 'collection', item: collection }, { orgId: organization, parent: undefined, position });
  return c.json(presentCollection(moved.item as CollectionItem, { role: target.role === 'admin' ? 'admin' : role }));
});

route(routes, op.listCollectionsInOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, nested } = c.req.valid('query');
  const { org } = await loadRootAccess(c.var.scope, organizationId);
  const query = nested
    ? collectionEntity.query.byOrg({ orgId: organizationId })
    : collectionEntity.query.children({ orgId: organizationId });
  const result = await query.page({ limit, cursor: page });
  const items = await presentReadable(c.var.scope, org, result.items, (collection, role) => presentCollection(collection, { role }));
  return c.json(presentList(items, result.next));
});

route(routes, op.createCollection, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const orgAccess = await loadRootAccess(c.var.scope, organizationId);
  let role = orgAccess.role;
  let ancestors: string[] = [];
  let parentRecord: CollectionItem | undefined;
  if (body.parent) {
    const parent = await loadCollectionAccess(c.var.scope, body.parent).catch(() => {
      throw badRequest(`parent: no collection ${body.parent} in this organization`);
    });
    if (parent.collection.orgId !== organizationId) throw badRequest(`parent: no collection ${body.parent} in this organization`);
    role = parent.role;
    parentRecord = parent.collection;
    ancestors = [...parent.collection.ancestors, parent.collection.id];
  }
  if (body.parent) policies.collection.authorize({ role }, 'create');
  else policies.organization.authorize({ role }, 'createContent', orgAccess.org);
  const siblings = await listChildren(organizationId, body.parent);
  const now = nowIso();
  const collection: CollectionItem = {
    id: randomId(),
    orgId: organizationId,
    title: body.title ?? 'Untitled',
    ...(body.parent ? { parent: body.parent } : {}),
    ancestors,
    defaultLevel: 'inherit',
    position: positionAmong(siblings, '', undefined),
    createdBy: c.get('caller').userId,
    createdAt: now,
    updatedAt: now,
  };
  await transactAsRead([collectionEntity.create({ collectionId: collection.id }, collection), ...(parentRecord ? [placedUnder(parentRecord, now)] : [])]);
  c.header('Location', apiLocation(`/collections/${collection.id}`));
  return c.json(presentCollection(collection, { role: orgAccess.role === 'admin' ? 'admin' : role }), 201);
});

function rethrowConflict(error: unknown): never {
  if (error instanceof ConditionFailed) throw conflict('The collection was changed by another request; retry');
  throw error;
}

export const app = groupApp(op.group, routes);
