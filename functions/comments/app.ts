import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { listCommentPage, listReplyPage } from '../../shared/db/lists/comments.ts';
import { resolveCommentTarget } from '../../shared/commands/comments/target.ts';
import { deleteComment } from '../../shared/commands/comments/delete.ts';
import { postComment } from '../../shared/commands/comments/post.ts';
import { updateComment } from '../../shared/commands/comments/update.ts';
import { deleteReply } from '../../shared/commands/comment-replies/delete.ts';
import { postReply } from '../../shared/commands/comment-replies/post.ts';
import { updateReply } from '../../shared/commands/comment-replies/update.ts';
import { findComment, findReply, loadComment, loadCommentScope, loadReply } from '../../shared/presenters/read/comment-scope.ts';
import { presentComments, presentOneComment, presentOneReply, presentReplies } from '../../shared/presenters/read/comments.ts';

/**
 * Comments (spec 4.5) in two scopes with the same operations: a space's own comments
 * (/spaces/{spaceId}/comments) and a change request's (/spaces/{spaceId}/change-requests/
 * {changeRequestId}/comments, the public interface's change request comments). Comments sit
 * on the space or change request, a page or a block of a page of its current revision;
 * replies, reactions, resolve/reopen. Reading needs `read` on the space, writing the
 * `comment` role (docs/permissions.md); the scope's `comments` counter (the space's or the
 * change request's) counts its open comments.
 */
const routes = operationRoutes();

const scopes = [op.spaceComments, op.changeRequestComments];

for (const scope of scopes) {

  route(routes, scope.list, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const query = c.req.valid('query');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const authors = [...new Set([...(query.authors ?? []), ...(query['authors[]'] ?? [])])];
    if (authors.length > 100) throw badRequest('authors: must name at most 100 users');
    const result = await listCommentPage(scope, {
      page: query.page, limit: query.limit, order: query.order, status: query.status, targetPage: query.targetPage, authors,
    });
    return c.json(presentList(await presentComments(c.var.scope, role, result.comments), result.next));
  });

  route(routes, scope.post, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const body = c.req.valid('json');
    const loaded = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const postedBy = c.get('caller').userId;
    policies.comment.authorize({ role: loaded.role, userId: postedBy }, 'post', { postedBy });
    const target = await resolveCommentTarget(loaded, body);
    const posted = await postComment({ spaceId, postedBy, markdown: body.body?.markdown ?? '', target });
    return c.json(await presentOneComment(c.var.scope, loaded.role, posted));
  });

  route(routes, scope.get, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    return c.json(await presentOneComment(c.var.scope, role, await loadComment(c.var.scope, scope, commentId)));
  });

  route(routes, scope.update, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const current = await loadComment(c.var.scope, scope, commentId);
    const updated = await updateComment(scope, commentId, { userId: c.get('caller').userId, role }, {
      resolved: body.resolved,
      markdown: body.body ? body.body.markdown ?? '' : undefined,
      addedReactions: body.addedReactions,
      removedReactions: body.removedReactions,
    }, current);
    return c.json(await presentOneComment(c.var.scope, role, updated));
  });

  route(routes, scope.remove, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const current = await findComment(c.var.scope, scope, commentId);
    // 204 both when deleted and when it did not exist (spec 4.5, 7.1).
    if (current) await deleteComment(scope, commentId, { userId: c.get('caller').userId, role }, current);
    return c.body(null, 204);
  });

  route(routes, scope.listReplies, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const query = c.req.valid('query');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    await loadComment(c.var.scope, scope, commentId);
    const result = await listReplyPage(spaceId, commentId, { page: query.page, limit: query.limit });
    return c.json(presentList(await presentReplies(c.var.scope, role, scope, result.replies), result.next));
  });

  route(routes, scope.postReply, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const current = await loadComment(c.var.scope, scope, commentId);
    const posted = await postReply(scope, commentId, { userId: c.get('caller').userId, role }, body.body?.markdown ?? '', current);
    return c.json(await presentOneReply(c.var.scope, role, scope, posted.reply));
  });

  route(routes, scope.getReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const found = await loadReply(c.var.scope, scope, commentId, commentReplyId);
    return c.json(await presentOneReply(c.var.scope, role, scope, found.reply));
  });

  route(routes, scope.updateReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const body = c.req.valid('json');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const found = await loadReply(c.var.scope, scope, commentId, commentReplyId);
    const updated = await updateReply(scope, commentId, commentReplyId, { userId: c.get('caller').userId, role }, {
      markdown: body.body ? body.body.markdown ?? '' : undefined,
      addedReactions: body.addedReactions,
      removedReactions: body.removedReactions,
    }, found.reply);
    return c.json(await presentOneReply(c.var.scope, role, scope, updated));
  });

  route(routes, scope.removeReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const { scope, role } = await loadCommentScope(c.var.scope, spaceId, changeRequestId);
    const found = await findReply(c.var.scope, scope, commentId, commentReplyId);
    // 204 both when deleted and when it (or its comment) did not exist, as for comments.
    if (found.comment && found.reply) {
      await deleteReply(scope, commentId, commentReplyId, { userId: c.get('caller').userId, role }, { comment: found.comment, reply: found.reply });
    }
    return c.body(null, 204);
  });
}

export const app = groupApp(op.group, routes);
