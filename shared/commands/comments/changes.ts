import type { CommentItem, CommentReplyItem, StoredReaction, StoredReplier } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { Rejection } from '../retry.ts';
import type { Caller } from './store.ts';

/** Changes to the body and reactions of a comment or reply, and the repliers of a comment. */

/** A comment carries at most this many different emoji. */
export const MAX_EMOJI_PER_COMMENT = 50;

export interface CommentChanges {
  resolved?: boolean;
  /** New body text ('' for the empty body). */
  markdown?: string;
  addedReactions?: string[];
  removedReactions?: string[];
}

export function authorizeChanges(caller: Caller, item: { postedBy: string }, changes: CommentChanges): void {
  policies.comment.authorize(caller, changes.markdown !== undefined ? 'edit' : 'change', item);
}

/** Body and reactions, shared by comments and replies. */
export function applyCommonChanges(item: CommentItem | CommentReplyItem, userId: string, changes: CommentChanges, now: string): void {
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
export function countReplier(repliers: StoredReplier[], userId: string, now: string): StoredReplier[] {
  const found = repliers.some((r) => r.userId === userId);
  return found
    ? repliers.map((r) => (r.userId === userId ? { userId, count: r.count + 1, updatedAt: now } : r))
    : [...repliers, { userId, count: 1, updatedAt: now }];
}

/**
 * One reply fewer by `userId`: their count goes down (they leave the repliers at zero) and
 * `updatedAt` becomes `latest` when given (the postedAt of their latest remaining reply).
 */
export function uncountReplier(repliers: StoredReplier[], userId: string, latest?: string): StoredReplier[] {
  return repliers.flatMap((r) => {
    if (r.userId !== userId) return [r];
    if (r.count <= 1) return [];
    return [{ userId, count: r.count - 1, updatedAt: latest ?? r.updatedAt }];
  });
}
