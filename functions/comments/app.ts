import type { Context } from 'hono';
import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';
import { validate } from '../../shared/http/validate.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { authorize } from '../../shared/policies/authorize.ts';
import { atLeast } from '../../shared/policies/roles.ts';
import { loadSpaceAccess } from '../../shared/policies/access.ts';
import { commentEntity, commentReplyEntity, type CommentItem, type CommentReplyItem } from '../../shared/db/entities/comment.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { listCommentPage } from '../../shared/commands/comments-list.ts';
import { resolveCommentTarget } from '../../shared/commands/comments-target.ts';
import { deleteComment, postComment, postReply, updateComment, updateReply } from '../../shared/commands/comments-write.ts';
import { presentComments, presentOneComment, presentOneReply } from '../../shared/commands/comments-present.ts';
import {
  commentParams, getCommentQuery, listCommentsQuery, postCommentBody, postReplyBody, replyParams, spaceParams,
  updateCommentBody, updateReplyBody,
} from './schemas.ts';

/**
 * Comments on a space, a page or a block of a page (spec 4.5): replies, reactions,
 * resolve/reopen. Reading needs `read` on the space, writing the `comment` role
 * (docs/permissions.md); the space's `comments` counter counts open comments.
 */
export const app = createGroupApp();

app.get('/spaces/:spaceId/comments', validate('param', spaceParams), validate('query', listCommentsQuery), async (c) => {
  const { spaceId } = c.req.valid('param');
  const query = c.req.valid('query');
  const { role } = await loadSpaceAccess(c, spaceId);
  const authors = [...new Set([...(query.authors ?? []), ...(query['authors[]'] ?? [])])];
  if (authors.length > 100) throw badRequest('authors: must name at most 100 users');
  const result = await listCommentPage(spaceId, {
    page: query.page, limit: query.limit, order: query.order, status: query.status, targetPage: query.targetPage, authors,
  });
  return c.json(presentList(await presentComments(c, role, result.comments), result.next));
});

app.post('/spaces/:spaceId/comments', validate('param', spaceParams), validate('json', postCommentBody), async (c) => {
  const { spaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { space, role } = await loadSpaceAccess(c, spaceId);
  authorize(atLeast(role, 'comment'), 'Posting a comment requires the comment role on the space');
  const target = await resolveCommentTarget(space, body);
  const comment = await postComment({ spaceId, postedBy: c.get('caller').userId, markdown: body.body?.markdown ?? '', target });
  return c.json(await presentOneComment(c, role, comment));
});

app.get('/spaces/:spaceId/comments/:commentId', validate('param', commentParams), validate('query', getCommentQuery), async (c) => {
  const { spaceId, commentId } = c.req.valid('param');
  const { role } = await loadSpaceAccess(c, spaceId);
  const comment = await loadComment(c, spaceId, commentId);
  return c.json(await presentOneComment(c, role, comment));
});

app.put('/spaces/:spaceId/comments/:commentId', validate('param', commentParams), validate('json', updateCommentBody), async (c) => {
  const { spaceId, commentId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { role } = await loadSpaceAccess(c, spaceId);
  const comment = await loadComment(c, spaceId, commentId);
  const updated = await updateComment(spaceId, commentId, { userId: c.get('caller').userId, role }, {
    resolved: body.resolved,
    markdown: body.body ? body.body.markdown ?? '' : undefined,
    addedReactions: body.addedReactions,
    removedReactions: body.removedReactions,
  }, comment);
  return c.json(await presentOneComment(c, role, updated));
});

app.delete('/spaces/:spaceId/comments/:commentId', validate('param', commentParams), async (c) => {
  const { spaceId, commentId } = c.req.valid('param');
  const { role } = await loadSpaceAccess(c, spaceId);
  const record = await c.get('loader').get(commentEntity.key({ spaceId, commentId }));
  // 204 both when deleted and when it did not exist (spec 4.5, 7.1).
  if (record) await deleteComment(spaceId, commentId, { userId: c.get('caller').userId, role }, commentEntity.fromRecord(record));
  return c.body(null, 204);
});

app.post('/spaces/:spaceId/comments/:commentId/replies', validate('param', commentParams), validate('json', postReplyBody), async (c) => {
  const { spaceId, commentId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { role } = await loadSpaceAccess(c, spaceId);
  const comment = await loadComment(c, spaceId, commentId);
  const { reply } = await postReply(spaceId, commentId, { userId: c.get('caller').userId, role }, body.body?.markdown ?? '', comment);
  return c.json(await presentOneReply(c, role, reply));
});

app.get('/spaces/:spaceId/comments/:commentId/replies/:commentReplyId', validate('param', replyParams), validate('query', getCommentQuery), async (c) => {
  const { spaceId, commentId, commentReplyId } = c.req.valid('param');
  const { role } = await loadSpaceAccess(c, spaceId);
  const reply = await loadReply(c, spaceId, commentId, commentReplyId);
  return c.json(await presentOneReply(c, role, reply));
});

app.put('/spaces/:spaceId/comments/:commentId/replies/:commentReplyId', validate('param', replyParams), validate('json', updateReplyBody), async (c) => {
  const { spaceId, commentId, commentReplyId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { role } = await loadSpaceAccess(c, spaceId);
  const reply = await loadReply(c, spaceId, commentId, commentReplyId);
  const updated = await updateReply(spaceId, commentId, commentReplyId, { userId: c.get('caller').userId, role }, {
    markdown: body.body ? body.body.markdown ?? '' : undefined,
    addedReactions: body.addedReactions,
    removedReactions: body.removedReactions,
  }, reply);
  return c.json(await presentOneReply(c, role, updated));
});

/** A comment of the space (read with the request's first BatchGet, see shared/http/prefetch.ts); 404 when absent. */
async function loadComment(c: Context<AppEnv>, spaceId: string, commentId: string): Promise<CommentItem> {
  const record = await c.get('loader').get(commentEntity.key({ spaceId, commentId }));
  if (!record) throw notFound(`No comment found with id ${commentId}`);
  return commentEntity.fromRecord(record);
}

async function loadReply(c: Context<AppEnv>, spaceId: string, commentId: string, replyId: string): Promise<CommentReplyItem> {
  const record = await c.get('loader').get(commentReplyEntity.key({ spaceId, commentId, replyId }));
  if (!record) throw notFound(`No reply found with id ${replyId} on comment ${commentId}`);
  return commentReplyEntity.fromRecord(record);
}

answerRemainingWith501(app, 'comments');
