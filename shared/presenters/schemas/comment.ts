import * as v from 'valibot';
import { countSchema, timestampSchema, urlSchema } from './common.ts';
import { userSchema } from './user.ts';

const reactionsSchema = v.array(v.object({
  emoji: v.string(),
  count: countSchema,
  users: v.array(v.object({ user: userSchema, reactedAt: timestampSchema })),
}));

const commentPermissionsSchema = v.object({ view: v.boolean(), edit: v.boolean(), reply: v.boolean(), delete: v.boolean() });

const commentBase = {
  object: v.literal('comment'),
  id: v.string(),
  postedBy: userSchema,
  postedAt: timestampSchema,
  editedAt: v.optional(timestampSchema),
  /** Emoji in the order they were first used, users in the order they reacted. */
  reactions: reactionsSchema,
  replies: countSchema,
  repliers: v.array(v.object({ user: userSchema, count: countSchema, updatedAt: timestampSchema })),
  body: v.object({ markdown: v.string() }),
  /** Where the comment is posted (spec 2.10): `changeRequest` for a change request's comments. */
  target: v.object({
    space: v.string(),
    revision: v.string(),
    changeRequest: v.optional(v.string()),
    review: v.optional(v.string()),
    page: v.optional(v.object({ id: v.string() })),
    node: v.optional(v.object({ id: v.string() })),
    tableCell: v.optional(v.object({ record: v.string(), definition: v.string() })),
  }),
  urls: v.object({ location: urlSchema }),
  permissions: commentPermissionsSchema,
};

/** Comment (spec 2.10): `resolvedAt` and `resolvedBy` while resolved. */
export const commentSchema = v.variant('status', [
  v.object({ ...commentBase, status: v.literal('open') }),
  v.object({ ...commentBase, status: v.literal('resolved'), resolvedAt: timestampSchema, resolvedBy: userSchema }),
]);
export type CommentOutput = v.InferOutput<typeof commentSchema>;

/** CommentReply (spec 2.10). */
export const commentReplySchema = v.object({
  object: v.literal('comment-reply'),
  id: v.string(),
  postedBy: userSchema,
  postedAt: timestampSchema,
  editedAt: v.optional(timestampSchema),
  reactions: reactionsSchema,
  body: v.object({ markdown: v.string() }),
  urls: v.object({ location: urlSchema }),
  permissions: commentPermissionsSchema,
});
export type CommentReplyOutput = v.InferOutput<typeof commentReplySchema>;
