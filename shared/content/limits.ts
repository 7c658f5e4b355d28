/**
 * Limits of page documents given as JSON by content edits, checked iteratively before any
 * recursive code (refs, keys, printing, the reader) walks them. Rich documents stored in
 * DynamoDB items are bounded by the generic body limits (shared/http/json-structure.ts).
 */
import * as v from 'valibot';
import { MAX_DOCUMENT_NODES, MAX_MARKDOWN_NESTING, nestingMessage, nodesMessage } from './markdown/limits.ts';

/**
 * JSON nesting (objects and arrays, the document itself is level 1) of a page document.
 * Page documents are S3 blobs: the bound only keeps recursion safe. Markdown at its own
 * limit (32 nested lists: list, nodes, list-item, nodes per level) prints to about 140.
 */
export const MAX_PAGE_DOCUMENT_DEPTH = 160;

/**
 * Body limits of a content edit (declared on updateChangeRequestContent): its page
 * documents sit 3 levels down (body, changes, change) and are stored in S3, so the generic
 * 30 levels sized for DynamoDB items do not apply; the 6 MB body cap bounds the values.
 */
export const contentEditBodyLimits = { depth: MAX_PAGE_DOCUMENT_DEPTH + 4, values: 3_000_000 };

export interface DocumentLimits {
  maxDepth: number;
  maxNodes: number;
  /**
   * Container blocks (blocks holding blocks: quotes, list items, hints, tabs, ...) nested in
   * one another, as markdown counts nesting: a document accepted here prints to markdown
   * that the markdown limits accept again. List wrappers do not count (their items do).
   */
  maxContainers: number;
}

export const pageDocumentLimits: DocumentLimits = { maxDepth: MAX_PAGE_DOCUMENT_DEPTH, maxNodes: MAX_DOCUMENT_NODES, maxContainers: MAX_MARKDOWN_NESTING };

const LIST_WRAPPERS = new Set(['list-ordered', 'list-unordered', 'list-tasks']);

/** Whether a node is a container block as markdown counts nesting. */
function isContainer(node: Record<string, unknown>): boolean {
  if (node.object !== 'block' || LIST_WRAPPERS.has(String(node.type))) return false;
  const children = node.nodes;
  return Array.isArray(children) && children.some((c) => c !== null && typeof c === 'object' && (c as { object?: unknown }).object === 'block');
}

/** The first limit `value` breaks ("nests deeper than N levels", "has more than N nodes"), or undefined. */
export function documentLimitIssue(value: unknown, limits: DocumentLimits): string | undefined {
  const stack: [unknown, number, number][] = [[value, 1, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [item, depth, outerContainers] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limits.maxDepth) return nestingMessage(limits.maxDepth);
    let containers = outerContainers;
    if (!Array.isArray(item) && typeof (item as { object?: unknown }).object === 'string') {
      if (++nodes > limits.maxNodes) return nodesMessage(limits.maxNodes);
      if (isContainer(item as Record<string, unknown>) && ++containers > limits.maxContainers) return nestingMessage(limits.maxContainers);
    }
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1, containers]);
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

