/**
 * Ingesting a conversation (spec 4.17 POST /orgs/{organizationId}/conversations), idempotent by
 * id: the first ingestion of an id stores it; later ones with the same id change nothing.
 * One transaction writes the conversation and its issue (when the analyzer raises one); then a
 * `conversations-cluster` job re-clusters the organization's issues across conversations
 * (recluster.ts), which sets the issue's cluster and recounts the clusters.
 */
import { nowIso } from '../../clock.ts';
import { sha256Hex } from '../../ids.ts';
import { transact, type Write } from '../../db/writes.ts';
import { ApiError } from '../../http/errors.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import {
  conversationEntity, conversationIssueEntity,
  type ConversationIssueItem, type ConversationItem, type ConversationMetadata, type ConversationPart,
} from '../../db/entities/conversation.ts';
import { conversationAnalyzer } from './analyzer.ts';
import { retryOnConflict } from '../retry.ts';

export interface IngestInput {
  orgId: string;
  ingestedBy: string;
  id: string;
  subject?: string;
  metadata?: { url?: string; attributes?: Record<string, string>; createdAt?: string };
  parts: ConversationPart[];
}

/** Issue id of a conversation: one issue per conversation, so it is derived from the conversation id. */
export const issueIdOf = (orgId: string, conversationId: string) => sha256Hex(`${orgId}\u0000${conversationId}`).slice(0, 20);

function sourceOf(metadata: ConversationMetadata): string {
  const named = metadata.attributes.source?.trim();
  if (named) return named.slice(0, 100);
  if (metadata.url) {
    try {
      return new URL(metadata.url).hostname || 'api';
    } catch {
      // validated as a URL; keep the default
    }
  }
  return 'api';
}

/** Returns true when this call stored the conversation, false when the id was ingested before. */
export async function ingestConversation(input: IngestInput): Promise<boolean> {
  return retryOnConflict(async () => {
    if (await conversationEntity.get({ orgId: input.orgId, conversationId: input.id }, { consistent: true })) return false;
    const now = nowIso();
    const metadata: ConversationMetadata = {
      ...(input.metadata?.url ? { url: input.metadata.url } : {}),
      attributes: input.metadata?.attributes ?? {},
      ...(input.metadata?.createdAt ? { createdAt: input.metadata.createdAt } : {}),
    };
    const conversation: ConversationItem = {
      id: input.id, orgId: input.orgId, subject: input.subject ?? '', source: sourceOf(metadata), metadata, parts: input.parts,
      createdAt: metadata.createdAt ?? now, processedAt: now, ingestedBy: input.ingestedBy,
    };
    const derived = conversationAnalyzer().analyze({ subject: conversation.subject, parts: conversation.parts });
    const writes: Write<unknown>[] = [];
    if (derived) {
      const issue: ConversationIssueItem = {
        id: issueIdOf(input.orgId, input.id), orgId: input.orgId, title: derived.title, summary: derived.summary,
        createdAt: conversation.createdAt, ingestedAt: now, conversation: input.id,
        text: derived.text, kind: derived.kind, source: conversation.source,
      };
      conversation.issue = issue.id;
      writes.push(conversationIssueEntity.create({ orgId: input.orgId, issueId: issue.id }, issue));
    }
    writes.unshift(conversationEntity.create({ orgId: input.orgId, conversationId: input.id }, conversation));
    // A failed condition means a concurrent ingestion of the same id won: retried, the read above answers false.
    await transact(writes, () => new ApiError(409, 'The conversation was ingested by another request'));
    if (derived) await enqueue({ kind: 'conversations-cluster', organizationId: input.orgId, ingestedAt: now });
    return true;
  });
}
