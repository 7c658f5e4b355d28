import type { Context } from 'hono';
import type * as v from 'valibot';
import type { AppEnv } from '../../shared/http/env.ts';
import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { notFound } from '../../shared/http/errors.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { findPage } from '../../shared/content/tree.ts';
import type { LoadedRevision } from '../../shared/content/revisions.ts';
import type { ContentContext } from '../../shared/presenters/revision.ts';
import { presentFile, presentPage, presentRevision } from '../../shared/presenters/revision.ts';
import { presentPageWithDocument } from '../../shared/presenters/page-document.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { contentQuery, filesQuery, pageQuery } from './schemas.ts';

type Loaded = LoadedRevision & ContentContext;

/**
 * The read operations on one revision, mounted at a prefix: the space's primary content
 * (`/spaces/:spaceId/content`), a change request's (`.../change-requests/:id/content`) and a
 * revision by id (`/spaces/:spaceId/revisions/:revisionId`) answer the same way.
 */
export function mountRevisionReads<P extends v.GenericSchema>(
  app: GroupApp,
  prefix: string,
  params: P,
  load: (c: Context<AppEnv>, params: v.InferOutput<P>) => Promise<Loaded>,
): void {
  app.get(prefix, validate('param', params), validate('query', contentQuery), async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    return c.json(await presentRevision(content.revision, content.manifest, content, c.req.valid('query')));
  });

  app.get(`${prefix}/pages`, validate('param', params), validate('query', contentQuery), async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const options = c.req.valid('query');
    return c.json({ pages: content.manifest.pages.map((page) => presentPage(page, '', content, options)) });
  });

  app.get(`${prefix}/files`, validate('param', params), validate('query', filesQuery), async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const { page, limit, ...options } = c.req.valid('query');
    const result = pageOfArray(content.manifest.files, { limit, cursor: page, scope: `files:${content.revision.id}` });
    return c.json(presentList(await Promise.all(result.items.map((file) => presentFile(file, options))), result.next));
  });

  app.get(`${prefix}/files/:fileId`, validate('param', params), validate('query', contentQuery), async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const fileId = c.req.param('fileId');
    const file = content.manifest.files.find((f) => f.id === fileId);
    if (!file) throw notFound(`No file ${fileId} in revision ${content.revision.id}`);
    return c.json(await presentFile(file, c.req.valid('query')));
  });

  app.get(`${prefix}/page/:pageId`, validate('param', params), validate('query', pageQuery), async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const pageId = c.req.param('pageId');
    const located = findPage(content.manifest, pageId);
    if (!located) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
    return c.json(await presentPageWithDocument(located, content, c.req.valid('query')));
  });
}
