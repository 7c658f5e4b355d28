import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';

/** Conversation (spec 2.14). */
export const conversationSchema = v.object({
  object: v.literal('conversation'),
  id: v.string(),
  subject: v.optional(v.string()),
  createdAt: timestampSchema,
  processedAt: v.optional(timestampSchema),
  source: v.string(),
  urls: v.object({ location: urlSchema, source: v.optional(urlSchema) }),
});
export type ConversationOutput = v.InferOutput<typeof conversationSchema>;

/** GET .../conversations/{conversationId}: the conversation, its parts and metadata. */
export const conversationDetailsSchema = v.object({
  conversation: conversationSchema,
  parts: v.array(v.object({ type: v.string(), role: v.string(), body: v.string() })),
  metadata: v.object({ url: v.optional(urlSchema), attributes: v.record(v.string(), v.string()), createdAt: v.optional(timestampSchema) }),
});

/** ConversationIssue (spec 2.14); `cluster` is null until the clustering job placed it. */
export const conversationIssueSchema = v.object({
  object: v.literal('conversation-issue'),
  id: v.string(),
  title: v.string(),
  summary: v.string(),
  createdAt: timestampSchema,
  ingestedAt: timestampSchema,
  conversation: v.string(),
  cluster: v.nullable(v.string()),
  urls: v.object({ location: urlSchema }),
});

/** An issue with its conversation (list and get of conversations-issues). */
export const issueWithConversationSchema = v.object({ issue: conversationIssueSchema, conversation: conversationSchema });

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** ConversationsIssuesCluster (spec 2.14): `weeklyPulse` holds 12 weeks, oldest first. */
export const conversationsClusterSchema = v.object({
  object: v.literal('issues-cluster'),
  id: v.string(),
  label: v.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  icon: v.string(),
  summary: v.string(),
  weeklyPulse: v.array(count),
  sources: v.record(v.string(), count),
  stats: v.object({
    issues: count, conversations: count, tasksTotal: count, tasksBacklog: count,
    tasksStarted: count, tasksCompleted: count, tasksCancelled: count,
  }),
  urls: v.object({ location: urlSchema, app: urlSchema }),
});
