import { operationGroup, type RequiredRole } from '../../shared/http/declare.ts';
import { commentParams, getCommentQuery, listCommentsQuery, listRepliesQuery, postCommentBody, postReplyBody, replyParams, scopeParams, updateCommentBody, updateReplyBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { commentReplySchema, commentSchema } from '../../shared/presenters/schemas/comment.ts';

/** The comments group's operations (spec 4.5), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('comments', '4.5');

/** Where comments live: a space's own comments (spec 4.5), or a change request's (the public interface's). */
interface CommentScope {
  /** Path of the scope, e.g. '/spaces/{spaceId}'. */
  base: string;
  /** Operation id suffix: 'InSpace', 'InChangeRequest'. */
  suffix: string;
  /** 'a space', 'a change request', for summaries. */
  noun: string;
  /** False for the whole scope, or for the operations the spec does not show (reply list and delete). */
  inSpec: boolean;
}

const DELETED = { 204: { description: 'No content (also when there was nothing to delete)' } } as const;
const authorOrAdmin: RequiredRole = { rule: 'its author (with comment) or admin on the space' };

/** The same ten operations in each scope: comments, then their replies. */
function declareCommentScope({ base, suffix, noun, inSpec }: CommentScope) {
  const comments = `${base}/comments`;
  const comment = `${comments}/{commentId}`;
  const replies = `${comment}/replies`;
  const reply = `${replies}/{commentReplyId}`;
  const inScope = (verb: string, what = 'Comment') => `${verb}${what}${suffix}`;
  return {
    list: group.declare({
      method: 'GET', path: comments, operationId: inScope('list', 'Comments'), summary: `List the comments of ${noun}.`, role: 'read',
      inSpec, params: scopeParams, query: listCommentsQuery,
      responses: { 200: { description: 'Success', schema: listSchema(commentSchema) } },
    }),
    post: group.declare({
      method: 'POST', path: comments, operationId: inScope('post'), summary: `Post a comment in ${noun}.`, role: 'comment',
      inSpec, params: scopeParams, body: postCommentBody,
      responses: { 200: { description: 'Success', schema: commentSchema } },
    }),
    get: group.declare({
      method: 'GET', path: comment, operationId: inScope('get'), summary: `Get a comment of ${noun}.`, role: 'read',
      inSpec, params: commentParams, query: getCommentQuery,
      responses: { 200: { description: 'Success', schema: commentSchema } },
    }),
    update: group.declare({
      method: 'PUT', path: comment, operationId: inScope('update'), summary: `Update or resolve a comment of ${noun}.`,
      role: { rule: 'comment on the space; the body: its author; resolve or reopen: its author or admin' },
      inSpec, params: commentParams, body: updateCommentBody,
      responses: { 200: { description: 'Success', schema: commentSchema } },
    }),
    remove: group.declare({
      method: 'DELETE', path: comment, operationId: inScope('delete'), summary: `Delete a comment of ${noun}.`, role: authorOrAdmin,
      inSpec, params: commentParams, responses: DELETED,
    }),
    postReply: group.declare({
      method: 'POST', path: replies, operationId: inScope('post', 'CommentReply'), summary: `Post a reply to a comment of ${noun}.`, role: 'comment',
      inSpec, params: commentParams, body: postReplyBody,
      responses: { 200: { description: 'Success', schema: commentReplySchema } },
    }),
    getReply: group.declare({
      method: 'GET', path: reply, operationId: inScope('get', 'CommentReply'), summary: `Get a reply to a comment of ${noun}.`, role: 'read',
      inSpec, params: replyParams, query: getCommentQuery,
      responses: { 200: { description: 'Success', schema: commentReplySchema } },
    }),
    updateReply: group.declare({
      method: 'PUT', path: reply, operationId: inScope('update', 'CommentReply'), summary: `Update a reply to a comment of ${noun}.`,
      role: { rule: 'comment on the space; the body: its author' },
      inSpec, params: replyParams, body: updateReplyBody,
      responses: { 200: { description: 'Success', schema: commentReplySchema } },
    }),
    // The spec does not show these two; the public interface has them.
    listReplies: group.declare({
      method: 'GET', path: replies, operationId: inScope('list', 'CommentReplies'), summary: `List the replies to a comment of ${noun}.`, role: 'read',
      inSpec: false, params: commentParams, query: listRepliesQuery,
      responses: { 200: { description: 'Success', schema: listSchema(commentReplySchema) } },
    }),
    removeReply: group.declare({
      method: 'DELETE', path: reply, operationId: inScope('delete', 'CommentReply'), summary: `Delete a reply to a comment of ${noun}.`, role: authorOrAdmin,
      inSpec: false, params: replyParams, responses: DELETED,
    }),
  };
}

export const spaceComments = declareCommentScope({ base: '/spaces/{spaceId}', suffix: 'InSpace', noun: 'a space', inSpec: true });
export const changeRequestComments = declareCommentScope({
  base: '/spaces/{spaceId}/change-requests/{changeRequestId}', suffix: 'InChangeRequest', noun: 'a change request', inSpec: false,
});
