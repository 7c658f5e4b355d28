import type { Role } from '../../http/schemas.ts';
import type { CommentItem, CommentReplyItem, CommentScope } from '../../db/entities/comment.ts';
import { userEntity, type UserItem } from '../../db/entities/user.ts';
import { commentUserIds, presentComment, presentCommentReply, type CommentPresentationContext } from '../comment.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * The presentation context for comments and replies: every user they name (authors,
 * resolvers, reactors, repliers) comes in ONE BatchGet through the request loader.
 */
async function presentationContext(request: RequestScope, role: Role | null, items: (CommentItem | CommentReplyItem)[]): Promise<CommentPresentationContext> {
  const loader = request.loader;
  const ids = [...new Set(items.flatMap(commentUserIds))];
  const keys = ids.map((userId) => userEntity.key({ userId }));
  await loader.load(keys);
  const users = new Map<string, UserItem>();
  for (const [i, key] of keys.entries()) {
    const record = loader.peek(key);
    if (record) users.set(ids[i]!, userEntity.fromRecord(record));
  }
  return { role, callerId: request.caller.userId, users };
}

export async function presentComments(request: RequestScope, role: Role | null, comments: CommentItem[]) {
  const context = await presentationContext(request, role, comments);
  return comments.map((comment) => presentComment(comment, context));
}

export async function presentOneComment(request: RequestScope, role: Role | null, comment: CommentItem) {
  return (await presentComments(request, role, [comment]))[0]!;
}

/** Replies of one comment; `scope` is the comment's (it gives their URLs). */
export async function presentReplies(request: RequestScope, role: Role | null, scope: CommentScope, replies: CommentReplyItem[]) {
  const context = await presentationContext(request, role, replies);
  return replies.map((reply) => presentCommentReply(reply, context, scope));
}

export async function presentOneReply(request: RequestScope, role: Role | null, scope: CommentScope, reply: CommentReplyItem) {
  return (await presentReplies(request, role, scope, [reply]))[0]!;
}
