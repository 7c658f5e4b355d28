/**
 * GFM for the processor (processor.ts): what remark-gfm registers, with its syntax as the
 * five extensions micromark-extension-gfm combines (in its order), each gated on what it
 * reads (syntax-gates.ts) so prose pages skip the ones they cannot use.
 */
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import type { Processor } from 'unified';
import { gated } from './syntax-gates.ts';

/**
 * Raw text every token of each extension contains: an e-mail literal its `@` (`mailto:` and
 * `xmpp:` ones too), a www literal `www.`, a protocol literal `http://` or `https://` (any
 * case); a footnote call or definition `[^`; strikethrough `~`; a table the `|` of its
 * delimiter row. Task list items are cheap (tried at `[` in a list item) and stay.
 */
export const GFM_PATTERNS = {
  autolinkLiteral: /@|www\.|https?:\/\//i,
  footnote: /\[\^/,
  strikethrough: /~/,
  table: /\|/,
} as const;

export function remarkGfmGated(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(
    gated(gfmAutolinkLiteral(), GFM_PATTERNS.autolinkLiteral),
    gated(gfmFootnote(), GFM_PATTERNS.footnote),
    gated(gfmStrikethrough(), GFM_PATTERNS.strikethrough),
    gated(gfmTable(), GFM_PATTERNS.table),
    gfmTaskListItem(),
  );
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
  (data.toMarkdownExtensions ??= []).push(gfmToMarkdown());
}
