/**
 * Limits of page documents given as JSON by content edits, checked iteratively before any
 * recursive code (refs, keys, printing, the reader) walks them. Rich documents stored in
 * DynamoDB items are bounded by the generic body limits (shared/http/json-structure.ts).
 */
import * as v from 'valibot';
import { MAX_DOCUMENT_NODES, nestingMessage, nodesMessage } from './markdown/limits.ts';

/**
 * JSON nesting (objects and arrays, the document itself is level 1) of a page document.
 * Page documents are S3 blobs: the bound only keeps recursion safe. Markdown at its own
 * limit (32 nested lists: list, nodes, list-item, nodes per level) prints to about 140.
 */
export const MAX_PAGE_DOCUMENT_DEPTH = 160;

export interface DocumentLimits {
  maxDepth: number;
  maxNodes: number;
}

export const pageDocumentLimits: DocumentLimits = { maxDepth: MAX_PAGE_DOCUMENT_DEPTH, maxNodes: MAX_DOCUMENT_NODES };

/** The first limit `value` breaks ("nests deeper than N levels", "has more than N nodes"), or undefined. */
export function documentLimitIssue(value: unknown, limits: DocumentLimits): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limits.maxDepth) return nestingMessage(limits.maxDepth);
    if (!Array.isArray(item) && typeof (item as { object?: unknown }).object === 'string' && ++nodes > limits.maxNodes) {
      return nodesMessage(limits.maxNodes);
    }
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** A valibot action raising the first limit the value breaks. */
export function documentLimitsCheck<T>(limits: DocumentLimits) {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    const issue = documentLimitIssue(dataset.value, limits);
    if (issue) addIssue({ message: issue });
  });
}

