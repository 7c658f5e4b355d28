import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import type { Role } from '../http/schemas.ts';
import type { CommentItem, CommentReplyItem, CommentScope } from '../db/entities/comment.ts';
import { userEntity, type UserItem } from '../db/entities/user.ts';
import { commentUserIds, presentComment, presentCommentReply, type CommentPresentationContext } from '../presenters/comment.ts';

/**
 * The presentation context for comments and replies: every user they name (authors,
 * resolvers, reactors, repliers) comes in ONE BatchGet through the request loader.
 */
async function presentationContext(c: Context<AppEnv>, role: Role | null, items: (CommentItem | CommentReplyItem)[]): Promise<CommentPresentationContext> {
  const loader = c.get('loader');
  const ids = [...new Set(items.flatMap(commentUserIds))];
  const keys = ids.map((userId) => userEntity.key({ userId }));
  await loader.load(keys);
  const users = new Map<string, UserItem>();
  for (const [i, key] of keys.entries()) {
    const record = loader.peek(key);
    if (record) users.set(ids[i]!, userEntity.fromRecord(record));
  }
  return { role, callerId: c.get('caller').userId, users };
}

export async function presentComments(c: Context<AppEnv>, role: Role | null, comments: CommentItem[]) {
  const context = await presentationContext(c, role, comments);
  return comments.map((comment) => presentComment(comment, context));
}

export async function presentOneComment(c: Context<AppEnv>, role: Role | null, comment: CommentItem) {
  return (await presentComments(c, role, [comment]))[0]!;
}

/** Replies of one comment; `scope` is the comment's (it gives their URLs). */
export async function presentReplies(c: Context<AppEnv>, role: Role | null, scope: CommentScope, replies: CommentReplyItem[]) {
  const context = await presentationContext(c, role, replies);
  return replies.map((reply) => presentCommentReply(reply, context, scope));
}

export async function presentOneReply(c: Context<AppEnv>, role: Role | null, scope: CommentScope, reply: CommentReplyItem) {
  return (await presentReplies(c, role, scope, [reply]))[0]!;
}
