import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { findPage } from '../../shared/content/tree.ts';
import { loadRevision, type LoadedRevision } from '../../shared/content/revisions.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import {
  brokenInChangeRequests, brokenIntroduced, fileBacklinks, linksResponse, pageBacklinks, revisionInSpace, revisionLinks } from '../../shared/content/links/responses.ts';

function requirePage(content: LoadedRevision, pageId: string): void {
  if (!findPage(content.manifest, pageId)) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
}

function requireFile(content: LoadedRevision, fileId: string): void {
  if (!content.manifest.files.some((f) => f.id === fileId)) throw notFound(`No file ${fileId} in revision ${content.revision.id}`);
}

/** What backlinks are listed for: a file, or a page (beyond the spec, as the public GitBook API has it). */
type BacklinkTarget = { kind: 'file' | 'page'; id: string };

async function backlinksList(c: Context<AppEnv>, content: LoadedRevision & { space: { id: string; orgId: string } }, target: BacklinkTarget, query: { page?: string; limit: number }) {
  if (target.kind === 'file') requireFile(content, target.id);
  else requirePage(content, target.id);
  const revision = revisionInSpace(content);
  const links = await revisionLinks(revision);
  const items = target.kind === 'file' ? fileBacklinks(revision, links, target.id) : pageBacklinks(revision, links, target.id);
  const scope = `${target.kind === 'file' ? 'backlinks' : 'page-backlinks'}:${revision.manifestHash}:${target.id}`;
  const one = pageOfArray(items, { limit: query.limit, cursor: query.page, scope });
  return c.json(presentList(one.items, one.next));
}

/**
 * Link checking of pages (spec 4.3 and 4.4: GET .../content/page/{pageId}/links) and file
 * backlinks (GET .../content/files/{fileId}/backlinks), for the space's primary content and
 * for a change request's content. See shared/content/links.
 */
export const linksRoutes = operationRoutes();

route(linksRoutes, op.listPageLinksInSpace, async (c) => {
  const { spaceId, pageId } = c.req.valid('param');
  const content = await loadSpaceContent(c.var.scope, spaceId);
  requirePage(content, pageId);
  const revision = revisionInSpace(content);
  const links = await revisionLinks(revision, pageId);
  const fromChangeRequests = await brokenInChangeRequests(c.var.scope, revision, links, pageId);
  return c.json(linksResponse(revision, links, c.req.valid('query'), fromChangeRequests, `links:${revision.manifestHash}:${pageId}`));
});

route(linksRoutes, op.listPageLinksInChangeRequest, async (c) => {
    const { spaceId, changeRequestId, pageId } = c.req.valid('param');
    const content = await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId);
    requirePage(content, pageId);
    const revision = revisionInSpace(content);
    const links = await revisionLinks(revision, pageId);
    // broken.changeRequest: the broken links this change request brings into the page.
    const primary = content.space.revision ? await loadRevision(spaceId, content.space.revision) : undefined;
    const primaryLinks = primary ? await revisionLinks(revisionInSpace({ ...primary, space: content.space }), pageId) : [];
    const introduced = brokenIntroduced(primaryLinks, links).size;
    return c.json(linksResponse(revision, links, c.req.valid('query'), introduced, `links:${revision.manifestHash}:${pageId}`));
  });

route(linksRoutes, op.listSpaceFileBacklinks, async (c) => {
  const { spaceId, fileId } = c.req.valid('param');
  return backlinksList(c, await loadSpaceContent(c.var.scope, spaceId), { kind: 'file', id: fileId }, c.req.valid('query'));
});

route(linksRoutes, op.listChangeRequestFileBacklinks, async (c) => {
    const { spaceId, changeRequestId, fileId } = c.req.valid('param');
    return backlinksList(c, await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId), { kind: 'file', id: fileId }, c.req.valid('query'));
  });

// Page backlinks: the places of other pages that link to a page, shaped like file backlinks.
route(linksRoutes, op.listSpacePageBacklinks, async (c) => {
  const { spaceId, pageId } = c.req.valid('param');
  return backlinksList(c, await loadSpaceContent(c.var.scope, spaceId), { kind: 'page', id: pageId }, c.req.valid('query'));
});

route(linksRoutes, op.listChangeRequestPageBacklinks, async (c) => {
  const { spaceId, changeRequestId, pageId } = c.req.valid('param');
  return backlinksList(c, await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId), { kind: 'page', id: pageId }, c.req.valid('query'));
});
