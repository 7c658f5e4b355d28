import * as v from 'valibot';
import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { notFound } from '../../shared/http/errors.ts';
import { id, listQuery } from '../../shared/http/schemas.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { findPage } from '../../shared/content/tree.ts';
import { loadRevision, type LoadedRevision } from '../../shared/content/revisions.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import {
  brokenInChangeRequests, brokenIntroduced, fileBacklinks, linksQuery, linksResponse, revisionInSpace, revisionLinks,
} from '../../shared/content/links/responses.ts';

const pageLinkParams = v.object({ spaceId: id, pageId: id });
const changeRequestPageParams = v.object({ spaceId: id, changeRequestId: id, pageId: id });
const fileParams = v.object({ spaceId: id, fileId: id });
const changeRequestFileParams = v.object({ spaceId: id, changeRequestId: id, fileId: id });

function requirePage(content: LoadedRevision, pageId: string): void {
  if (!findPage(content.manifest, pageId)) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
}

function requireFile(content: LoadedRevision, fileId: string): void {
  if (!content.manifest.files.some((f) => f.id === fileId)) throw notFound(`No file ${fileId} in revision ${content.revision.id}`);
}

async function backlinksList(c: Context<AppEnv>, content: LoadedRevision & { space: { id: string; orgId: string } }, fileId: string, query: { page?: string; limit: number }) {
  requireFile(content, fileId);
  const revision = revisionInSpace(content);
  const items = fileBacklinks(revision, await revisionLinks(revision), fileId);
  const one = pageOfArray(items, { limit: query.limit, cursor: query.page, scope: `backlinks:${revision.manifestHash}:${fileId}` });
  return c.json(presentList(one.items, one.next));
}

/**
 * Link checking of pages (spec 4.3 and 4.4: GET .../content/page/{pageId}/links) and file
 * backlinks (GET .../content/files/{fileId}/backlinks), for the space's primary content and
 * for a change request's content. See shared/content/links.
 */
export function mountLinks(app: GroupApp): void {
  app.get('/spaces/:spaceId/content/page/:pageId/links', validate('param', pageLinkParams), validate('query', linksQuery), async (c) => {
    const { spaceId, pageId } = c.req.valid('param');
    const content = await loadSpaceContent(c, spaceId);
    requirePage(content, pageId);
    const revision = revisionInSpace(content);
    const links = await revisionLinks(revision, pageId);
    const fromChangeRequests = await brokenInChangeRequests(c, revision, links, pageId);
    return c.json(linksResponse(revision, links, c.req.valid('query'), fromChangeRequests, `links:${revision.manifestHash}:${pageId}`));
  });

  app.get('/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    validate('param', changeRequestPageParams), validate('query', linksQuery), async (c) => {
      const { spaceId, changeRequestId, pageId } = c.req.valid('param');
      const content = await loadChangeRequestContent(c, spaceId, changeRequestId);
      requirePage(content, pageId);
      const revision = revisionInSpace(content);
      const links = await revisionLinks(revision, pageId);
      // broken.changeRequest: the broken links this change request brings into the page.
      const primary = content.space.revision ? await loadRevision(spaceId, content.space.revision) : undefined;
      const primaryLinks = primary ? await revisionLinks(revisionInSpace({ ...primary, space: content.space }), pageId) : [];
      const introduced = brokenIntroduced(primaryLinks, links).size;
      return c.json(linksResponse(revision, links, c.req.valid('query'), introduced, `links:${revision.manifestHash}:${pageId}`));
    });

  app.get('/spaces/:spaceId/content/files/:fileId/backlinks', validate('param', fileParams), validate('query', listQuery), async (c) => {
    const { spaceId, fileId } = c.req.valid('param');
    return backlinksList(c, await loadSpaceContent(c, spaceId), fileId, c.req.valid('query'));
  });

  app.get('/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
    validate('param', changeRequestFileParams), validate('query', listQuery), async (c) => {
      const { spaceId, changeRequestId, fileId } = c.req.valid('param');
      return backlinksList(c, await loadChangeRequestContent(c, spaceId, changeRequestId), fileId, c.req.valid('query'));
    });
}
