import type { Context } from 'hono';
import type * as v from 'valibot';
import type { AppEnv } from '../../shared/http/env.ts';
import { operationRoutes, route, type OperationRoutes } from '../../shared/http/route.ts';
import type { Operation, OperationInput } from '../../shared/http/declare.ts';
import { notFound } from '../../shared/http/errors.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { findPage } from '../../shared/content/tree.ts';
import type { LoadedRevision } from '../../shared/content/revisions.ts';
import type { ContentContext, ContentOptions } from '../../shared/presenters/revision.ts';
import { PresentedJsonCache, type Answer } from '../../shared/presenters/presented-json-cache.ts';
import { answerBytes } from '../../shared/http/compress-answers.ts';
import { config } from '../../shared/config.ts';
import { presentFile, presentPage } from '../../shared/presenters/revision.ts';
import { presentLoadedRevision } from '../../shared/presenters/read/revision.ts';
import { presentPageContent } from './page-content.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { contentQuery, filesQuery, pageQuery } from './schemas.ts';

type Loaded = LoadedRevision & ContentContext;

/** Answers holding a presented page tree, by manifest, space, options and answer: 32 MB (about ten 5,000-page spaces). */
const pagesJson = new PresentedJsonCache(32 * 1024 * 1024);

/**
 * `value` as JSON bytes with its `pages` the presented page tree of the revision (a manifest
 * never changes, so neither does the tree): `answer` names the operation, whose other fields differ.
 */
function withPresentedPages(answer: 'revision' | 'pages', value: Record<string, unknown>, content: Loaded, options: ContentOptions): Answer {
  const key = `${answer}|${content.revision.manifest}|${content.space.id}|${options.metadata}|${config.appUrl}`;
  return pagesJson.answer(key, value, 'pages', () => content.manifest.pages.map((page) => presentPage(page, '', content, options)));
}

/** A cached answer's bytes, gzipped once for the clients that accept it. */
const cachedAnswer = (c: Context<AppEnv>, answer: Answer) => answerBytes(c, answer, 'application/json');

/** A declared read of one revision, with its query schema (and path, where handlers read a path parameter). */
type RevisionRead<Q extends v.GenericSchema, Path extends string = string> = Operation<OperationInput & { path: Path; params: v.GenericSchema; query: Q }>;

/** The five reads of one revision (declared in operations.ts, one set per place a revision is read). */
export interface RevisionReadOperations {
  revision: RevisionRead<typeof contentQuery>;
  pages: RevisionRead<typeof contentQuery>;
  files: RevisionRead<typeof filesQuery>;
  file: RevisionRead<typeof contentQuery, `${string}/files/{fileId}`>;
  page: RevisionRead<typeof pageQuery, `${string}/page/{pageId}`>;
}

/**
 * The read operations on one revision: the space's primary content
 * (`/spaces/:spaceId/content`), a change request's (`.../change-requests/:id/content`) and a
 * revision by id (`/spaces/:spaceId/revisions/:revisionId`) answer the same way: a sub-app
 * of the five reads, for one set of declarations.
 */
export function revisionReads<P extends v.GenericSchema>(
  operations: RevisionReadOperations,
  load: (c: Context<AppEnv>, params: v.InferOutput<P>) => Promise<Loaded>,
): OperationRoutes {
  const app = operationRoutes();
  // The page tree, the bulk of both answers, is served from its stored serialization.
  route(app, operations.revision, async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const options = c.req.valid('query');
    const withoutPages = { ...content, manifest: { ...content.manifest, pages: [] } };
    const rest = await presentLoadedRevision(c.var.scope, withoutPages, options);
    return cachedAnswer(c, withPresentedPages('revision', { ...rest }, content, options));
  });

  route(app, operations.pages, async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    return cachedAnswer(c, withPresentedPages('pages', {}, content, c.req.valid('query')));
  });

  route(app, operations.files, async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const { page, limit, ...options } = c.req.valid('query');
    const result = pageOfArray(content.manifest.files, { limit, cursor: page, scope: `files:${content.revision.id}` });
    return c.json(presentList(await Promise.all(result.items.map((file) => presentFile(file, options))), result.next));
  });

  route(app, operations.file, async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const fileId = c.req.param('fileId');
    const file = content.manifest.files.find((f) => f.id === fileId);
    if (!file) throw notFound(`No file ${fileId} in revision ${content.revision.id}`);
    return c.json(await presentFile(file, c.req.valid('query')));
  });

  route(app, operations.page, async (c) => {
    const content = await load(c, c.req.valid('param') as v.InferOutput<P>);
    const pageId = c.req.param('pageId');
    const located = findPage(content.manifest, pageId);
    if (!located) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
    return c.json(await presentPageContent(located, content, c.req.valid('query')));
  });
  return app;
}
