import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';
import { mountTemplate } from './template.ts';
import { validate } from '../../shared/http/validate.ts';
import { notFound } from '../../shared/http/errors.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { findPageByPath } from '../../shared/content/tree.ts';
import { presentPageWithDocument } from '../../shared/presenters/page-document.ts';
import { mountRevisionReads } from './reads.ts';
import { mountChangeRequestWrites } from './writes.ts';
import { mountSearch } from './search.ts';
import { mountLinks } from './links.ts';
import { changeRequestParams, pagePathParams, pageQuery, revisionParams, spaceParams } from './schemas.ts';

/**
 * Content (spec 4.3 and change request content): reads of the space's primary revision,
 * of a change request's revision and of any revision by id; edits through change requests.
 */
export const app = createGroupApp();

mountRevisionReads(app, '/spaces/:spaceId/content', spaceParams, (c, p) => loadSpaceContent(c, p.spaceId));
mountRevisionReads(app, '/spaces/:spaceId/change-requests/:changeRequestId/content', changeRequestParams,
  (c, p) => loadChangeRequestContent(c, p.spaceId, p.changeRequestId));
mountRevisionReads(app, '/spaces/:spaceId/revisions/:revisionId', revisionParams, (c, p) => loadSpaceContent(c, p.spaceId, p.revisionId));

app.get('/spaces/:spaceId/content/path/:pagePath{.+}', validate('param', pagePathParams), validate('query', pageQuery), async (c) => {
  const { spaceId, pagePath } = c.req.valid('param');
  const content = await loadSpaceContent(c, spaceId);
  const located = findPageByPath(content.manifest, decodeURIComponent(pagePath));
  if (!located) throw notFound(`No page at path ${pagePath} in space ${spaceId}`);
  return c.json(await presentPageWithDocument(located, content, c.req.valid('query')));
});

mountChangeRequestWrites(app);
mountSearch(app);
mountLinks(app);
mountTemplate(app);
answerRemainingWith501(app, 'content');
