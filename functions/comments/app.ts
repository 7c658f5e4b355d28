import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';
import { validate } from '../../shared/http/validate.ts';
import { badRequest } from '../../shared/http/errors.ts';
import { authorize } from '../../shared/policies/authorize.ts';
import { atLeast } from '../../shared/policies/roles.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { listCommentPage, listReplyPage } from '../../shared/commands/comments-list.ts';
import { resolveCommentTarget } from '../../shared/commands/comments-target.ts';
import { deleteComment, postComment, updateComment } from '../../shared/commands/comments-write.ts';
import { deleteReply, postReply, updateReply } from '../../shared/commands/comments-replies.ts';
import { findComment, findReply, loadComment, loadCommentScope, loadReply } from '../../shared/commands/comments-scope.ts';
import { presentComments, presentOneComment, presentOneReply, presentReplies } from '../../shared/commands/comments-present.ts';
import {
  commentParams, getCommentQuery, listCommentsQuery, listRepliesQuery, postCommentBody, postReplyBody, replyParams, scopeParams,
  updateCommentBody, updateReplyBody,
} from './schemas.ts';

/**
 * Comments (spec 4.5) in two scopes with the same operations: a space's own comments
 * (/spaces/{spaceId}/comments) and a change request's (/spaces/{spaceId}/change-requests/
 * {changeRequestId}/comments, the public interface's change request comments). Comments sit
 * on the space or change request, a page or a block of a page of its current revision;
 * replies, reactions, resolve/reopen. Reading needs `read` on the space, writing the
 * `comment` role (docs/permissions.md); the scope's `comments` counter (the space's or the
 * change request's) counts its open comments.
 */
export const app = createGroupApp();

const bases = ['/spaces/:spaceId', '/spaces/:spaceId/change-requests/:changeRequestId'];

for (const base of bases) {
  const comments = `${base}/comments`;
  const comment = `${comments}/:commentId`;
  const replies = `${comment}/replies`;
  const reply = `${replies}/:commentReplyId`;

  app.get(comments, validate('param', scopeParams), validate('query', listCommentsQuery), async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const query = c.req.valid('query');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const authors = [...new Set([...(query.authors ?? []), ...(query['authors[]'] ?? [])])];
    if (authors.length > 100) throw badRequest('authors: must name at most 100 users');
    const result = await listCommentPage(scope, {
      page: query.page, limit: query.limit, order: query.order, status: query.status, targetPage: query.targetPage, authors,
    });
    return c.json(presentList(await presentComments(c, role, result.comments), result.next));
  });

  app.post(comments, validate('param', scopeParams), validate('json', postCommentBody), async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const body = c.req.valid('json');
    const loaded = await loadCommentScope(c, spaceId, changeRequestId);
    authorize(atLeast(loaded.role, 'comment'), 'Posting a comment requires the comment role on the space');
    const target = await resolveCommentTarget(loaded, body);
    const posted = await postComment({ spaceId, postedBy: c.get('caller').userId, markdown: body.body?.markdown ?? '', target });
    return c.json(await presentOneComment(c, loaded.role, posted));
  });

  app.get(comment, validate('param', commentParams), validate('query', getCommentQuery), async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    return c.json(await presentOneComment(c, role, await loadComment(c, scope, commentId)));
  });

  app.put(comment, validate('param', commentParams), validate('json', updateCommentBody), async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const current = await loadComment(c, scope, commentId);
    const updated = await updateComment(scope, commentId, { userId: c.get('caller').userId, role }, {
      resolved: body.resolved,
      markdown: body.body ? body.body.markdown ?? '' : undefined,
      addedReactions: body.addedReactions,
      removedReactions: body.removedReactions,
    }, current);
    return c.json(await presentOneComment(c, role, updated));
  });

  app.delete(comment, validate('param', commentParams), async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const current = await findComment(c, scope, commentId);
    // 204 both when deleted and when it did not exist (spec 4.5, 7.1).
    if (current) await deleteComment(scope, commentId, { userId: c.get('caller').userId, role }, current);
    return c.body(null, 204);
  });

  app.get(replies, validate('param', commentParams), validate('query', listRepliesQuery), async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const query = c.req.valid('query');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    await loadComment(c, scope, commentId);
    const result = await listReplyPage(spaceId, commentId, { page: query.page, limit: query.limit });
    return c.json(presentList(await presentReplies(c, role, scope, result.replies), result.next));
  });

  app.post(replies, validate('param', commentParams), validate('json', postReplyBody), async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const current = await loadComment(c, scope, commentId);
    const posted = await postReply(scope, commentId, { userId: c.get('caller').userId, role }, body.body?.markdown ?? '', current);
    return c.json(await presentOneReply(c, role, scope, posted.reply));
  });

  app.get(reply, validate('param', replyParams), validate('query', getCommentQuery), async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const found = await loadReply(c, scope, commentId, commentReplyId);
    return c.json(await presentOneReply(c, role, scope, found.reply));
  });

  app.put(reply, validate('param', replyParams), validate('json', updateReplyBody), async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const found = await loadReply(c, scope, commentId, commentReplyId);
    const updated = await updateReply(scope, commentId, commentReplyId, { userId: c.get('caller').userId, role }, {
      markdown: body.body ? body.body.markdown ?? '' : undefined,
      addedReactions: body.addedReactions,
      removedReactions: body.removedReactions,
    }, found.reply);
    return c.json(await presentOneReply(c, role, scope, updated));
  });

  app.delete(reply, validate('param', replyParams), async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c, spaceId, changeRequestId);
    const found = await findReply(c, scope, commentId, commentReplyId);
    // 204 both when deleted and when it (or its comment) did not exist, as for comments.
    if (found.comment && found.reply) {
      await deleteReply(scope, commentId, commentReplyId, { userId: c.get('caller').userId, role }, { comment: found.comment, reply: found.reply });
    }
    return c.body(null, 204);
  });
}

answerRemainingWith501(app, 'comments');
