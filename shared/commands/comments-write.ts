import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { Role } from '../http/schemas.ts';
import { addToCounter, getRecord, queryAll, transact, type TransactItem } from '../db/operations.ts';
import { spaceEntity } from '../db/entities/space.ts';
import {
  commentEntity, commentReplyEntity, replyPrefix,
  type CommentItem, type CommentReplyItem, type CommentTargetItem, type StoredReaction, type StoredReplier,
} from '../db/entities/comment.ts';
import { authorize } from '../policies/authorize.ts';
import { atLeast } from '../policies/roles.ts';
import { canResolveComment, commentPermissions } from '../policies/permissions.ts';
import { chunked, Rejection, retryOnConflict } from './members-retry.ts';

/**
 * Comment and reply writes (spec 4.5). Every write of a comment or reply is conditional on
 * the `version` it read and bumps it; a concurrent writer makes the condition fail and the
 * write runs again from a fresh, consistent read (retryOnConflict), so concurrent reactions,
 * replies and resolutions all land. The space's `comments` counter (open comments, spec 2.7)
 * changes in the same transaction as the change it counts.
 */

export interface Caller {
  userId: string;
  /** The caller's effective role on the space. */
  role: Role | null;
}

/** A comment carries at most this many different emoji. */
export const MAX_EMOJI_PER_COMMENT = 50;

const changedConcurrently = () => conflict('The comment was changed by another request; retry');
const missingComment = (commentId: string) => new Rejection(404, `No comment found with id ${commentId}`);

export async function readComment(spaceId: string, commentId: string): Promise<CommentItem | undefined> {
  const record = await getRecord(commentEntity.key({ spaceId, commentId }), true);
  return record ? commentEntity.fromRecord(record) : undefined;
}

export async function readReply(spaceId: string, commentId: string, replyId: string): Promise<CommentReplyItem | undefined> {
  const record = await getRecord(commentReplyEntity.key({ spaceId, commentId, replyId }), true);
  return record ? commentReplyEntity.fromRecord(record) : undefined;
}

/** Put of a comment: a create (no previous version) or a replace of the version that was read. */
function putComment(comment: CommentItem, previousVersion?: number): TransactItem {
  return {
    Put: {
      TableName: config.tableName,
      Item: commentEntity.toRecord({ spaceId: comment.spaceId, commentId: comment.id }, comment),
      ...(previousVersion === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': previousVersion } }),
    },
  };
}

function putReply(reply: CommentReplyItem, previousVersion?: number): TransactItem {
  return {
    Put: {
      TableName: config.tableName,
      Item: commentReplyEntity.toRecord({ spaceId: reply.spaceId, commentId: reply.commentId, replyId: reply.id }, reply),
      ...(previousVersion === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': previousVersion } }),
    },
  };
}

const openCommentsCounter = (spaceId: string, delta: number) => addToCounter(spaceEntity.key({ spaceId }), 'comments', delta);

/** Posts an open comment; the space's open-comment counter goes up in the same transaction. */
export async function postComment(input: { spaceId: string; postedBy: string; markdown: string; target: CommentTargetItem }): Promise<CommentItem> {
  const comment: CommentItem = {
    id: randomId(),
    spaceId: input.spaceId,
    postedBy: input.postedBy,
    postedAt: nowIso(),
    markdown: input.markdown,
    target: input.target,
    status: 'open',
    reactions: [],
    replies: 0,
    repliers: [],
    version: 1,
  };
  await transact([putComment(comment), openCommentsCounter(input.spaceId, 1)], (index) =>
    index === 1 ? notFound(`No space found with id ${input.spaceId}`) : conflict('The comment already exists'));
  return comment;
}

export interface CommentChanges {
  resolved?: boolean;
  /** New body text ('' for the empty body). */
  markdown?: string;
  addedReactions?: string[];
  removedReactions?: string[];
}

/**
 * PUT comment. `body` is the author's alone; `resolved` the author's or a space admin's;
 * reactions anyone's with the comment role. Resolving sets `resolvedAt`/`resolvedBy` and
 * takes the comment off the space's open count; reopening clears them and puts it back.
 * A change that changes nothing (resolving a resolved comment, an existing reaction)
 * writes nothing. `cached` is the record the request already read.
 */
export async function updateComment(spaceId: string, commentId: string, caller: Caller, changes: CommentChanges, cached?: CommentItem): Promise<CommentItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(spaceId, commentId);
    if (!current) throw missingComment(commentId);
    const isAuthor = current.postedBy === caller.userId;
    authorizeChanges(caller, isAuthor, changes);
    if (changes.resolved !== undefined) {
      authorize(canResolveComment(caller.role, isAuthor), 'Resolving or reopening a comment requires being its author or an admin of the space');
    }
    const now = nowIso();
    const next: CommentItem = { ...current };
    applyCommonChanges(next, caller.userId, changes, now);
    if (changes.resolved === true && current.status === 'open') {
      next.status = 'resolved';
      next.resolvedAt = now;
      next.resolvedBy = caller.userId;
    } else if (changes.resolved === false && current.status === 'resolved') {
      next.status = 'open';
      delete next.resolvedAt;
      delete next.resolvedBy;
    }
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    next.version = current.version + 1;
    const items = [putComment(next, current.version)];
    if (next.status !== current.status) items.push(openCommentsCounter(spaceId, next.status === 'open' ? 1 : -1));
    await transact(items, changedConcurrently);
    return next;
  });
}

/**
 * DELETE comment, with its replies; an open comment leaves the space's open count in the
 * same transaction. Replies beyond one transaction go first, in chunks; the last
 * transaction deletes the comment on the version whose replies were read, so a reply
 * posted meanwhile makes it run again. Nothing happens when the comment does not exist.
 */
export async function deleteComment(spaceId: string, commentId: string, caller: Caller, cached?: CommentItem): Promise<void> {
  await retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(spaceId, commentId);
    if (!current) return;
    authorize(commentPermissions(caller.role, current.postedBy === caller.userId).delete,
      'Deleting a comment requires being its author or an admin of the space');
    const replies = await queryAll({ partition: `SPACE#${spaceId}`, prefix: replyPrefix(commentId) });
    const replyDeletes: TransactItem[] = replies.map((r) => ({
      Delete: { TableName: config.tableName, Key: { pk: r.pk, sk: r.sk } },
    }));
    const last: TransactItem[] = [{
      Delete: {
        TableName: config.tableName,
        Key: commentEntity.key({ spaceId, commentId }),
        ConditionExpression: 'version = :previous',
        ExpressionAttributeValues: { ':previous': current.version },
      },
    }];
    if (current.status === 'open') last.push(openCommentsCounter(spaceId, -1));
    const early = replyDeletes.slice(0, Math.max(0, replyDeletes.length - (100 - last.length)));
    for (const chunk of chunked(early, 100)) await transact(chunk);
    await transact([...last, ...replyDeletes.slice(early.length)], changedConcurrently);
  });
}

/**
 * POST reply: the reply and the comment's `replies`/`repliers` in one transaction, on the
 * comment version that was read. Needs the comment role.
 */
export async function postReply(
  spaceId: string, commentId: string, caller: Caller, markdown: string, cached?: CommentItem,
): Promise<{ reply: CommentReplyItem; comment: CommentItem }> {
  authorize(atLeast(caller.role, 'comment'), 'Replying to a comment requires the comment role on the space');
  const replyId = randomId();
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(spaceId, commentId);
    if (!current) throw missingComment(commentId);
    const now = nowIso();
    const reply: CommentReplyItem = {
      id: replyId, spaceId, commentId, postedBy: caller.userId, postedAt: now, markdown, reactions: [], version: 1,
    };
    const comment: CommentItem = {
      ...current,
      replies: current.replies + 1,
      repliers: countReplier(current.repliers, caller.userId, now),
      version: current.version + 1,
    };
    await transact([putComment(comment, current.version), putReply(reply)], changedConcurrently);
    return { reply, comment };
  });
}

/** PUT reply: `body` (its author only) and reactions (the comment role). */
export async function updateReply(
  spaceId: string, commentId: string, replyId: string, caller: Caller, changes: Omit<CommentChanges, 'resolved'>, cached?: CommentReplyItem,
): Promise<CommentReplyItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readReply(spaceId, commentId, replyId);
    if (!current) throw new Rejection(404, `No reply found with id ${replyId}`);
    authorizeChanges(caller, current.postedBy === caller.userId, changes);
    const next: CommentReplyItem = { ...current };
    applyCommonChanges(next, caller.userId, changes, nowIso());
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    next.version = current.version + 1;
    await transact([putReply(next, current.version)], () => conflict('The reply was changed by another request; retry'));
    return next;
  });
}

function authorizeChanges(caller: Caller, isAuthor: boolean, changes: CommentChanges): void {
  authorize(atLeast(caller.role, 'comment'), 'Changing a comment requires the comment role on the space');
  if (changes.markdown !== undefined) authorize(isAuthor, 'Only its author can edit the body of a comment');
}

/** Body and reactions, shared by comments and replies. */
function applyCommonChanges(item: CommentItem | CommentReplyItem, userId: string, changes: CommentChanges, now: string): void {
  if (changes.markdown !== undefined && changes.markdown !== item.markdown) {
    item.markdown = changes.markdown;
    item.editedAt = now;
  }
  if (changes.addedReactions?.length || changes.removedReactions?.length) {
    item.reactions = applyReactions(item.reactions, userId, changes.addedReactions ?? [], changes.removedReactions ?? [], now);
  }
}

/**
 * The caller's reactions added and removed. Adding a reaction the caller already has, or
 * removing one they do not have, changes nothing; an emoji nobody uses any more disappears.
 */
export function applyReactions(reactions: StoredReaction[], userId: string, added: string[], removed: string[], now: string): StoredReaction[] {
  const next = reactions.map((r) => ({ emoji: r.emoji, users: [...r.users] }));
  for (const emoji of added) {
    let entry = next.find((r) => r.emoji === emoji);
    if (!entry) {
      entry = { emoji, users: [] };
      next.push(entry);
    }
    if (!entry.users.some((u) => u.userId === userId)) entry.users.push({ userId, reactedAt: now });
  }
  for (const emoji of removed) {
    const entry = next.find((r) => r.emoji === emoji);
    if (entry) entry.users = entry.users.filter((u) => u.userId !== userId);
  }
  const kept = next.filter((r) => r.users.length > 0);
  if (kept.length > MAX_EMOJI_PER_COMMENT && kept.length > reactions.length) {
    throw new Rejection(400, `addedReactions: a comment carries at most ${MAX_EMOJI_PER_COMMENT} different emoji`);
  }
  return kept;
}

/** One more reply by `userId`: their count goes up, or they join the repliers (first reply first). */
function countReplier(repliers: StoredReplier[], userId: string, now: string): StoredReplier[] {
  const found = repliers.some((r) => r.userId === userId);
  return found
    ? repliers.map((r) => (r.userId === userId ? { userId, count: r.count + 1, updatedAt: now } : r))
    : [...repliers, { userId, count: 1, updatedAt: now }];
}
