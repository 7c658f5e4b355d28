import { operationGroup } from '../../shared/http/declare.ts';
import { commentParams, getCommentQuery, listCommentsQuery, listRepliesQuery, postCommentBody, postReplyBody, replyParams, scopeParams, updateCommentBody, updateReplyBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { commentReplySchema, commentSchema } from '../../shared/presenters/schemas/comment.ts';

/** The comments group's operations (spec 4.5), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('comments', '4.5');

export const listCommentsInSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/comments',
  operationId: 'listCommentsInSpace',
  summary: 'List the comments of a space.',
  role: 'read',
  params: scopeParams,
  query: listCommentsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(commentSchema) },
  },
});

export const postCommentInSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/comments',
  operationId: 'postCommentInSpace',
  summary: 'Post a comment in a space.',
  role: 'comment',
  params: scopeParams,
  body: postCommentBody,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const getCommentInSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/comments/{commentId}',
  operationId: 'getCommentInSpace',
  summary: 'Get a comment of a space.',
  role: 'read',
  params: commentParams,
  query: getCommentQuery,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const updateCommentInSpace = group.declare({
  method: 'PUT',
  path: '/spaces/{spaceId}/comments/{commentId}',
  operationId: 'updateCommentInSpace',
  summary: 'Update or resolve a comment of a space.',
  role: { rule: 'comment on the space; the body: its author; resolve or reopen: its author or admin' },
  params: commentParams,
  body: updateCommentBody,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const deleteCommentInSpace = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/comments/{commentId}',
  operationId: 'deleteCommentInSpace',
  summary: 'Delete a comment of a space.',
  role: { rule: 'its author (with comment) or admin on the space' },
  params: commentParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const postCommentReplyInSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/comments/{commentId}/replies',
  operationId: 'postCommentReplyInSpace',
  summary: 'Post a reply to a comment of a space.',
  role: 'comment',
  params: commentParams,
  body: postReplyBody,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const getCommentReplyInSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'getCommentReplyInSpace',
  summary: 'Get a reply to a comment of a space.',
  role: 'read',
  params: replyParams,
  query: getCommentQuery,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const updateCommentReplyInSpace = group.declare({
  method: 'PUT',
  path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'updateCommentReplyInSpace',
  summary: 'Update a reply to a comment of a space.',
  role: { rule: 'comment on the space; the body: its author' },
  params: replyParams,
  body: updateReplyBody,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const listCommentRepliesInSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/comments/{commentId}/replies',
  operationId: 'listCommentRepliesInSpace',
  summary: 'List the replies to a comment of a space.',
  role: 'read',
  inSpec: false,
  params: commentParams,
  query: listRepliesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(commentReplySchema) },
  },
});

export const deleteCommentReplyInSpace = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'deleteCommentReplyInSpace',
  summary: 'Delete a reply to a comment of a space.',
  role: { rule: 'its author (with comment) or admin on the space' },
  inSpec: false,
  params: replyParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const listCommentsInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  operationId: 'listCommentsInChangeRequest',
  summary: 'List the comments of a change request.',
  role: 'read',
  inSpec: false,
  params: scopeParams,
  query: listCommentsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(commentSchema) },
  },
});

export const postCommentInChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  operationId: 'postCommentInChangeRequest',
  summary: 'Post a comment in a change request.',
  role: 'comment',
  inSpec: false,
  params: scopeParams,
  body: postCommentBody,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const getCommentInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}',
  operationId: 'getCommentInChangeRequest',
  summary: 'Get a comment of a change request.',
  role: 'read',
  inSpec: false,
  params: commentParams,
  query: getCommentQuery,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const updateCommentInChangeRequest = group.declare({
  method: 'PUT',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}',
  operationId: 'updateCommentInChangeRequest',
  summary: 'Update or resolve a comment of a change request.',
  role: { rule: 'comment on the space; the body: its author; resolve or reopen: its author or admin' },
  inSpec: false,
  params: commentParams,
  body: updateCommentBody,
  responses: {
    200: { description: 'Success', schema: commentSchema },
  },
});

export const deleteCommentInChangeRequest = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}',
  operationId: 'deleteCommentInChangeRequest',
  summary: 'Delete a comment of a change request.',
  role: { rule: 'its author (with comment) or admin on the space' },
  inSpec: false,
  params: commentParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const listCommentRepliesInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies',
  operationId: 'listCommentRepliesInChangeRequest',
  summary: 'List the replies to a comment of a change request.',
  role: 'read',
  inSpec: false,
  params: commentParams,
  query: listRepliesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(commentReplySchema) },
  },
});

export const postCommentReplyInChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies',
  operationId: 'postCommentReplyInChangeRequest',
  summary: 'Post a reply to a comment of a change request.',
  role: 'comment',
  inSpec: false,
  params: commentParams,
  body: postReplyBody,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const getCommentReplyInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'getCommentReplyInChangeRequest',
  summary: 'Get a reply to a comment of a change request.',
  role: 'read',
  inSpec: false,
  params: replyParams,
  query: getCommentQuery,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const updateCommentReplyInChangeRequest = group.declare({
  method: 'PUT',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'updateCommentReplyInChangeRequest',
  summary: 'Update a reply to a comment of a change request.',
  role: { rule: 'comment on the space; the body: its author' },
  inSpec: false,
  params: replyParams,
  body: updateReplyBody,
  responses: {
    200: { description: 'Success', schema: commentReplySchema },
  },
});

export const deleteCommentReplyInChangeRequest = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}',
  operationId: 'deleteCommentReplyInChangeRequest',
  summary: 'Delete a reply to a comment of a change request.',
  role: { rule: 'its author (with comment) or admin on the space' },
  inSpec: false,
  params: replyParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});
