/**
 * Markdown <-> GitBook JSON document, the exchange format of page content:
 * CommonMark + GFM + YAML frontmatter + GitBook block tags, with exact round trips
 * for canonical markdown (what documentToMarkdown prints).
 */
export type { ContentRef, DocumentNode, ElementNode, FragmentNode, Frontmatter, JSONDocument, Leaf, Mark, TextNode } from './types.ts';
export { captionText } from './captions.ts';
export { markdownToDocument } from './parse.ts';
export { documentToMarkdown } from './print.ts';
export { documentLinks, type DocumentLink } from './links.ts';
export { documentSections, type Section } from './sections.ts';
export { assignKeys } from './keys.ts';
export { MAX_DEPTH } from './depth.ts';
export {
  ContentLimitError, MarkdownNestingError, MAX_DOCUMENT_NODES, MAX_MARKDOWN_BYTES, MAX_MARKDOWN_NESTING, markdownPrecheck,
} from './limits.ts';
