import { definePolicy, requirement, role } from './policy.ts';
import { atLeast } from './roles.ts';

/** A comment or reply, for the caller's effective role on its space and user id. */
type Comment = { postedBy: string };

const commenter = role('comment', 'Changing a comment requires the comment role on the space');
const authorOrAdmin = (reason: string) => requirement<Comment>(
  (actor, comment) => (actor.userId === comment.postedBy && atLeast(actor.role, 'comment')) || actor.role === 'admin', reason);

export const commentPolicy = definePolicy({
  rules: {
    read: [role('read', 'Reading comments requires the read role on the space')],
    /** A new comment (its resource: the comment the caller would post). */
    post: [role('comment', 'Posting a comment requires the comment role on the space')],
    /** Replies and reactions. */
    reply: [role('comment', 'Replying to a comment requires the comment role on the space')],
    /** Any change (status, body); the body needs `edit` as well. */
    change: [commenter],
    edit: [commenter, requirement<Comment>((actor, comment) => actor.userId === comment.postedBy, 'Only its author can edit the body of a comment')],
    /** Resolving or reopening (as the public interface says for comment updates). */
    resolve: [authorOrAdmin('Resolving or reopening a comment requires being its author or an admin of the space')],
    delete: [authorOrAdmin('Deleting a comment requires being its author or an admin of the space')],
    deleteReply: [authorOrAdmin('Deleting a reply requires being its author or an admin of the space')],
  },
  presented: { view: 'read', edit: 'edit', reply: 'reply', delete: 'delete' },
});
