import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { templateRoutes } from './template.ts';
import { notFound } from '../../shared/http/errors.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { findPageByPath } from '../../shared/content/tree.ts';
import { presentPageContent } from './page-content.ts';
import { revisionReads } from './reads.ts';
import { changeRequestWritesRoutes } from './writes.ts';
import { searchRoutes } from './search.ts';
import { linksRoutes } from './links.ts';
import { pageMetaLinksRoutes } from './page-meta-links.ts';
import type { changeRequestParams, revisionParams, spaceParams } from './schemas.ts';

/**
 * Content (spec 4.3 and change request content): reads of the space's primary revision,
 * of a change request's revision and of any revision by id; edits through change requests.
 */
const routes = operationRoutes();

const spaceContent = revisionReads<typeof spaceParams>(
  { revision: op.getCurrentRevision, pages: op.listPages, files: op.listFiles, file: op.getFileById, page: op.getPageById },
  (c, p) => loadSpaceContent(c.var.scope, p.spaceId));
const changeRequestContent = revisionReads<typeof changeRequestParams>(
  { revision: op.getRevisionOfChangeRequestById, pages: op.listPagesInChangeRequest, files: op.listFilesInChangeRequestById, file: op.getFileInChangeRequestById, page: op.getPageInChangeRequestById },
  (c, p) => loadChangeRequestContent(c.var.scope, p.spaceId, p.changeRequestId));
const revisionContent = revisionReads<typeof revisionParams>(
  { revision: op.getRevisionById, pages: op.listPagesInRevisionById, files: op.listFilesInRevisionById, file: op.getFileInRevisionById, page: op.getPageInRevisionById },
  (c, p) => loadSpaceContent(c.var.scope, p.spaceId, p.revisionId));

route(routes, op.getPageByPath, async (c) => {
  const { spaceId, pagePath } = c.req.valid('param');
  const content = await loadSpaceContent(c.var.scope, spaceId);
  const located = findPageByPath(content.manifest, decodeURIComponent(pagePath));
  if (!located) throw notFound(`No page at path ${pagePath} in space ${spaceId}`);
  return c.json(await presentPageContent(located, content, c.req.valid('query')));
});

export const app = groupApp(op.group, spaceContent, changeRequestContent, revisionContent, routes, changeRequestWritesRoutes, searchRoutes, linksRoutes, pageMetaLinksRoutes, templateRoutes);
