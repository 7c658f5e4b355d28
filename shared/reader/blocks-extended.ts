import type { ElementContent } from 'hast';
import type { ReaderNode, RenderContext } from './document.ts';

/** What a block renderer outside document.ts may call back into. */
export interface ExtendedRenderHelpers {
  ctx: RenderContext;
  /** Renders child blocks (includes, nesting depth and ids handled by document.ts). */
  blocks(nodes?: ReaderNode[]): ElementContent[];
  /** Renders inline nodes (text with marks, links, inline images). */
  inlines(nodes?: ReaderNode[]): ElementContent[];
}

/**
 * Renders the block types document.ts does not know itself (content-model blocks added
 * after the reader's core set). Undefined means "not mine": document.ts renders the
 * children as a plain container.
 */
export function renderExtendedBlock(_node: ReaderNode, _helpers: ExtendedRenderHelpers): ElementContent[] | undefined {
  return undefined;
}
