/**
 * Public document shapes, following GitBook's JSON document (openapi-notes 3.11):
 * blocks and inlines with `object`, `type`, `key`, `data`, `nodes`; text as leaves with marks.
 */

export interface Frontmatter {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Mark {
  object?: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}

export interface TextNode {
  object: 'text';
  key?: string;
  leaves: Leaf[];
}

export interface ElementNode {
  object: 'block' | 'inline';
  type: string;
  key: string;
  data?: Record<string, unknown>;
  isVoid?: boolean;
  nodes: DocumentNode[];
  /** Nested documents of a block (an image's caption: DocumentBlockImage.fragments). */
  fragments?: FragmentNode[];
}

/** A nested document of a block, named by `fragment` (e.g. `caption`: paragraphs). */
export interface FragmentNode {
  object: 'fragment';
  key?: string;
  fragment: string;
  /** Repeats `fragment` where the public document does (expandable-title, expandable-body). */
  type?: string;
  nodes: DocumentNode[];
}

export type DocumentNode = ElementNode | TextNode;

export interface JSONDocument {
  object: 'document';
  data: { schemaVersion?: number; [k: string]: unknown };
  nodes: DocumentNode[];
}

/** The reference kinds markdown can express (GitBook's ContentRef subset). */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string; page?: string };

export function isText(node: DocumentNode): node is TextNode {
  return node.object === 'text';
}

export function isElement(node: DocumentNode): node is ElementNode {
  return node.object !== 'text';
}

/** Builds a block or inline; keys are filled in afterwards by assignKeys (keys.ts). */
export function element(
  object: 'block' | 'inline',
  type: string,
  nodes: DocumentNode[] = [],
  data?: Record<string, unknown>,
  isVoid?: boolean,
): ElementNode {
  // Field order as in GitBook's API output: object, type, key, data, nodes, isVoid.
  const node = { object, type, key: '', ...(data !== undefined && { data }), nodes } as ElementNode;
  if (isVoid) node.isVoid = true;
  return node;
}

export function block(type: string, nodes: DocumentNode[] = [], data?: Record<string, unknown>): ElementNode {
  return element('block', type, nodes, data);
}

export function voidBlock(type: string, data: Record<string, unknown>): ElementNode {
  return element('block', type, [], data, true);
}
