import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { ApiError, badRequest } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { nowIso } from '../../shared/clock.ts';
import { transact } from '../../shared/db/writes.ts';
import { TransactionConflict } from '../../shared/db/errors.ts';
import { retryOnConflict } from '../../shared/commands/retry.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { applyChanges } from '../../shared/content/changes.ts';
import { prepareRevision } from '../../shared/content/revisions.ts';
import { movePrimaryRevision } from '../../shared/content/primary-revision.ts';
import { contentUpdated, emitOrganizationEvent } from '../../shared/integrations/events.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { editChangeRequestContent } from '../../shared/content/edit-change-request.ts';
import { contentTemplates, templateChanges,  type ContentTemplate, type TemplateContentRef } from '../../shared/content/templates.ts';

/** A concurrent write moved the revision the template was applied to: apply it again. */
class Moved extends ApiError {
  constructor() {
    super(409, 'The content was changed by another request at the same time; retry');
  }
}

/**
 * POST /spaces/{spaceId}/content/template (applyTemplateToSpace): a built-in template
 * (shared/content/templates.ts) becomes one new revision, of the change request named by
 * `changeRequestId` or else of the space's primary content. Needs `edit` and an unlocked
 * space. 201 without a body.
 */
export const templateRoutes = operationRoutes();

route(templateRoutes, op.applyTemplateToSpace, async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const template = contentTemplates[body.id]!;
  const refs = (body.params?.contentRefs ?? {}) as Record<string, TemplateContentRef>;
  if (body.changeRequestId !== undefined) await applyToChangeRequest(c, spaceId, body.changeRequestId, template, refs);
  else await applyToPrimaryContent(c, spaceId, template, refs);
  return c.body(null, 201);
});

const noRevert = async (): Promise<never> => {
  throw badRequest('templates do not revert pages');
};

/** Like a content POST on the change request: a new revision whose parent is its current one. */
async function applyToChangeRequest(c: Context<AppEnv>, spaceId: string, changeRequestId: string, template: ContentTemplate, refs: Record<string, TemplateContentRef>) {
  await editChangeRequestContent(c.var.scope, spaceId, changeRequestId, async (content, now) => {
    const applied = await applyChanges(content.manifest, templateChanges(template, content.manifest, refs, spaceId), { now, revertSource: noRevert });
    return { manifest: applied.manifest, result: undefined };
  });
}

/**
 * On the space's primary content: a new revision whose parent is the current one, and the
 * space's `revision` moved to it in the same transaction, conditional on the revision read
 * (a concurrent merge or template is never overwritten: this one runs again on top of it)
 * and on the space still being live and unlocked. `updatedAt` moves too, so a concurrent
 * whole-record space update fails rather than writing the old revision back.
 */
async function applyToPrimaryContent(c: Context<AppEnv>, spaceId: string, template: ContentTemplate, refs: Record<string, TemplateContentRef>) {
  const userId = c.get('caller').userId;
  const spaceKey = spaceEntity.key({ spaceId });
  const moved = (error: unknown) => error instanceof Moved || error instanceof TransactionConflict;
  await retryOnConflict(async () => {
    const content = await loadSpaceContent(c.var.scope, spaceId);
    const { space } = content;
    policies.space.authorize(content, 'edit', space);
    const now = nowIso();
    const applied = await applyChanges(content.manifest, templateChanges(template, content.manifest, refs, spaceId), { now, revertSource: noRevert });
    const next = await prepareRevision({ spaceId, manifest: applied.manifest, parents: [content.revision.id], type: 'edits', createdBy: userId });
    const move = movePrimaryRevision({ spaceId, from: content.revision.id, to: next.revision.id, now, unlockedOnly: true });
    try {
      await transact([next.put, move], () => new Moved());
    } finally {
      // The space record changed (or must be read again): later reads must not see the old one.
      c.get('loader').forget(spaceKey);
    }
    await emitOrganizationEvent(space.orgId, contentUpdated(spaceId, next.revision.id));
  }, { retryable: moved });
}
