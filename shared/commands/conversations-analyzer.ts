/**
 * Deriving issues from conversations. There is no language model here: the default
 * `KeywordAnalyzer` is a deterministic rule, and a real model plugs in later behind the same
 * `ConversationAnalyzer` interface (setConversationAnalyzer), with nothing else changing.
 *
 * Rule: a conversation raises ONE issue when its user messages (role `user`) ask a question
 * (contain `?`) or name an error keyword (error, fail, broken, crash, bug, exception, 404, ...).
 * The issue joins the cluster of its normalized keyword: the first word of the subject, then of
 * the user messages, that has at least 4 letters and is neither a stop word nor an error or
 * question word, lower-cased with a plural `s` removed (`webhooks` → `webhook`); `general` when
 * there is none.
 */
import type { ConversationPart } from '../db/entities/conversation.ts';

export interface DerivedIssue {
  title: string;
  summary: string;
  cluster: { id: string; label: string; icon: string; summary: string };
}

export interface ConversationAnalyzer {
  analyze(conversation: { subject: string; parts: ConversationPart[] }): DerivedIssue | null;
}

const ERROR_WORDS = new Set([
  'error', 'errors', 'fail', 'fails', 'failed', 'failing', 'failure', 'broken', 'broke', 'crash', 'crashes', 'crashed',
  'bug', 'bugs', 'exception', 'timeout', 'cannot', 'cant', 'unable', '404', '500', 'wrong', 'issue', 'problem',
]);
const STOP_WORDS = new Set([
  'about', 'above', 'after', 'again', 'also', 'because', 'been', 'before', 'being', 'between', 'both', 'could', 'does',
  'doesnt', 'dont', 'each', 'even', 'from', 'have', 'having', 'hello', 'help', 'here', 'into', 'just', 'like', 'make',
  'more', 'most', 'much', 'need', 'only', 'other', 'please', 'really', 'same', 'should', 'some', 'such', 'than', 'thank',
  'thanks', 'that', 'their', 'them', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'very', 'want', 'were',
  'what', 'when', 'where', 'which', 'while', 'will', 'with', 'would', 'your', 'yours', 'anyone', 'someone', 'getting',
  'trying', 'using', 'work', 'works', 'working', 'know', 'question', 'questions', 'there', 'still',
  'how', 'why', 'who',
]);

function words(text: string): string[] {
  return text.toLowerCase().replace(/['’]/g, '').split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

export function normalizeKeyword(word: string): string {
  return word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export class KeywordAnalyzer implements ConversationAnalyzer {
  analyze(conversation: { subject: string; parts: ConversationPart[] }): DerivedIssue | null {
    const userMessages = conversation.parts.filter((p) => p.type === 'message' && p.role === 'user').map((p) => p.body);
    const userText = userMessages.join('\n');
    const errorWord = words(userText).find((w) => ERROR_WORDS.has(w));
    const question = userText.includes('?');
    if (!errorWord && !question) return null;
    const candidates = [...words(conversation.subject), ...words(userText)];
    const keyword = candidates.find((w) => w.length >= 4 && /[a-z]/.test(w) && !STOP_WORDS.has(w) && !ERROR_WORDS.has(w));
    const id = keyword ? normalizeKeyword(keyword) : 'general';
    const firstMessage = userMessages.find((m) => m.trim() !== '') ?? '';
    return {
      title: clip(conversation.subject || firstMessage, 100),
      summary: clip(firstMessage, 280),
      cluster: {
        id,
        label: id.charAt(0).toUpperCase() + id.slice(1),
        icon: errorWord ? 'bug' : 'circle-question',
        summary: `Conversations about "${id}"`,
      },
    };
  }
}

let current: ConversationAnalyzer = new KeywordAnalyzer();

export function conversationAnalyzer(): ConversationAnalyzer {
  return current;
}

export function setConversationAnalyzer(analyzer: ConversationAnalyzer): ConversationAnalyzer {
  const previous = current;
  current = analyzer;
  return previous;
}
