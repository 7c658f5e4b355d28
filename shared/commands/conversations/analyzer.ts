/**
 * Deriving issues from conversations, behind the `ConversationAnalyzer` interface (a model
 * can implement it; `setConversationAnalyzer`). The default `RuleAnalyzer` raises ONE issue
 * when the user's messages (role `user`) ask a question (`?`) or report a failure (error,
 * fail, broken, 404, ...): its title is the subject (else the first user message), its summary
 * the first user message, its `text` (what clustering reads) the subject and every user
 * message. Grouping issues into clusters is not the analyzer's job: the clustering job does it
 * across conversations (recluster.ts).
 */
import type { ConversationPart } from '../../db/entities/conversation.ts';

export interface DerivedIssue {
  title: string;
  summary: string;
  /** `error` for reported failures, else `question`. */
  kind: 'error' | 'question';
  /** The words clustering compares (bounded). */
  text: string;
}

export interface ConversationAnalyzer {
  analyze(conversation: { subject: string; parts: ConversationPart[] }): DerivedIssue | null;
}

/** Characters of an issue's `text` kept for clustering. */
export const MAX_ISSUE_TEXT = 4_000;

const ERROR_WORDS = new Set([
  'error', 'errors', 'fail', 'fails', 'failed', 'failing', 'failure', 'broken', 'broke', 'crash', 'crashes', 'crashed',
  'bug', 'bugs', 'exception', 'timeout', 'cannot', 'cant', 'unable', '401', '403', '404', '429', '500', 'wrong', 'issue',
  'problem', 'stuck', 'rejected', 'declined', 'missing', 'lose', 'lost', 'not',
]);

const words = (text: string) => text.toLowerCase().replace(/['’]/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export class RuleAnalyzer implements ConversationAnalyzer {
  analyze(conversation: { subject: string; parts: ConversationPart[] }): DerivedIssue | null {
    const userMessages = conversation.parts.filter((p) => p.type === 'message' && p.role === 'user').map((p) => p.body);
    const userText = userMessages.join('\n');
    const error = words(userText).some((w) => ERROR_WORDS.has(w));
    if (!error && !userText.includes('?')) return null;
    const firstMessage = userMessages.find((m) => m.trim() !== '') ?? '';
    return {
      title: clip(conversation.subject || firstMessage, 100),
      summary: clip(firstMessage, 280),
      kind: error ? 'error' : 'question',
      text: clip(`${conversation.subject}\n${userText}`, MAX_ISSUE_TEXT),
    };
  }
}

let current: ConversationAnalyzer = new RuleAnalyzer();

export function conversationAnalyzer(): ConversationAnalyzer {
  return current;
}

export function setConversationAnalyzer(analyzer: ConversationAnalyzer): ConversationAnalyzer {
  const previous = current;
  current = analyzer;
  return previous;
}
