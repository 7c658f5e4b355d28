/**
 * Pairs tag lines into containers: `{% hint %} ... {% endhint %}` siblings become one
 * gitbookBlock holding what was between them. Works in every flow container
 * (root, list items, block quotes) so tags nest anywhere the parser saw them.
 * Lenient by design: unclosed tags close with their parent, a new `tab`/`step`
 * closes the previous one, unknown tags stay raw lines and a stray end tag is text.
 */
import type { Paragraph, Parent, RootContent } from 'mdast';
import type { GitbookBlock, GitbookTag } from './syntax.ts';
import { MAX_MARKDOWN_BYTES } from './limits.ts';
import { parseMdast } from './mdast.ts';
import { isTagName, parseTagLine } from './tags.ts';

/** Tags that never have a body. */
const VOID = new Set(['include']);
/** Tags whose end tag is optional (`{% embed url=... %}` alone is complete). */
const OPTIONAL_END = new Set(['embed', 'file', 'content-ref', 'page-ref', 'openapi-operation', 'openapi-schemas', 'openapi-webhook']);
/** How deep tag blocks may nest in each other. */
const MAX_TAG_DEPTH = 32;
/** Siblings that implicitly close an open sibling of the same name. */
const SIBLING = new Set(['tab', 'step', 'column', 'update']);

type FlowNode = GitbookBlock['children'][number];

/** Whether `end<name>` follows before another `name` opens or some other container ends. */
function hasEndAhead(siblings: RootContent[], from: number, name: string): boolean {
  for (let i = from + 1; i < siblings.length; i++) {
    const node = siblings[i]!;
    if (node.type !== 'gitbookTag') continue;
    const tag = parseTagLine(node.value);
    if (!tag) continue;
    if (tag.name === `end${name}`) return true;
    if (tag.name === name || (tag.name.startsWith('end') && isTagName(tag.name))) return false;
  }
  return false;
}

/** HTML blocks that only end at a blank line, where a following tag line gets swallowed. */
const OPEN_HTML = /^<(?!pre|script|style|textarea|!--|\?|![A-Z]|!\[CDATA\[)/i;

/**
 * Bytes of swallowed HTML one page may parse again. Each split parses the rest of the
 * HTML block again, so HTML and tag lines alternating without blank lines would cost
 * quadratic time; past the budget such a block stays raw HTML.
 */
const REPARSE_BUDGET_BYTES = 2 * MAX_MARKDOWN_BYTES;
type Budget = { bytes: number };

/**
 * `<figure>...</figure>` directly followed by `{% endhint %}` (as GitBook writes it)
 * parses as one HTML block running to the next blank line. Everything from the
 * first tag line on is markdown again: parse it as such.
 */
function splitHtml(children: RootContent[], budget: Budget): RootContent[] {
  return children.flatMap((node): RootContent[] => {
    if (node.type !== 'html' || !OPEN_HTML.test(node.value)) return [node];
    const lines = node.value.split('\n');
    const at = lines.findIndex((line) => parseTagLine(line));
    if (at < 0) return [node];
    const tail = lines.slice(at).join('\n');
    if ((budget.bytes -= tail.length) < 0) return [node];
    const rest = splitHtml(parseMdast(tail, false).children, budget);
    return at === 0 ? rest : [{ type: 'html', value: lines.slice(0, at).join('\n') }, ...rest];
  });
}

/**
 * `<details>` expandables, as GitBook writes them: `<details>` (or `<details open>`) and
 * `<summary>Title</summary>` HTML blocks, markdown, then `</details>`. They pair like tags,
 * into a `details` container whose summary HTML is kept in `attrs.summary`.
 */
const DETAILS_OPEN = /^<details(\s+open(?:=(?:"[^"]*"|'[^']*'|\S*))?)?\s*>\s*(?:<summary>([\s\S]*?)<\/summary>)?\s*$/i;
const DETAILS_CLOSE = /^<\/details>$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>$/i;

function textParagraph(value: string): Paragraph {
  return { type: 'paragraph', children: [{ type: 'text', value }] };
}

function nestChildren(input: RootContent[], depth: number, budget: Budget): RootContent[] {
  const children = splitHtml(input, budget);
  const out: RootContent[] = [];
  const stack: GitbookBlock[] = [];
  const push = (node: RootContent) => {
    const top = stack[stack.length - 1];
    if (top) top.children.push(node as FlowNode);
    else out.push(node);
  };

  children.forEach((node, index) => {
    if (node.type === 'html') {
      const value = node.value.trim();
      const top = stack[stack.length - 1];
      const open = DETAILS_OPEN.exec(value);
      if (open && depth + stack.length < MAX_TAG_DEPTH) {
        const block: GitbookBlock = { type: 'gitbookBlock', name: 'details', attrs: open[1] ? { open: 'true' } : {}, args: [], children: [] };
        if (open[2] !== undefined) block.attrs.summary = open[2];
        push(block);
        stack.push(block);
        return;
      }
      const summary = SUMMARY.exec(value);
      if (summary && top?.name === 'details' && top.children.length === 0 && top.attrs.summary === undefined) {
        top.attrs.summary = summary[1]!;
        return;
      }
      if (DETAILS_CLOSE.test(value)) {
        const at = stack.map((b) => b.name).lastIndexOf('details');
        if (at >= 0) {
          stack.length = at;
          return;
        }
      }
    }
    if (node.type !== 'gitbookTag') {
      nestTags(node, depth + stack.length, budget);
      push(node);
      return;
    }
    const tag = parseTagLine((node as GitbookTag).value);
    // Tags without a block of their own stay raw lines (printed back verbatim).
    if (!tag || !isTagName(tag.name)) return push(node);
    if (tag.name.startsWith('end')) {
      const at = stack.map((b) => b.name).lastIndexOf(tag.name.slice(3));
      // A stray end tag becomes text: printed raw it would close a container next time.
      if (at < 0) return push(textParagraph(node.value));
      stack.length = at;
      return;
    }
    const block: GitbookBlock = { type: 'gitbookBlock', name: tag.name, attrs: tag.attrs, args: tag.args, children: [] };
    // A condition is an expression, not attributes.
    if (tag.name === 'if') block.raw = tag.raw;
    if (VOID.has(tag.name) || (OPTIONAL_END.has(tag.name) && !hasEndAhead(children, index, tag.name))) {
      block.selfClosing = true;
      return push(block);
    }
    if (SIBLING.has(tag.name) && stack[stack.length - 1]?.name === tag.name) stack.pop();
    // Unclosed tags pile up; past a sane depth they are text, not ever deeper blocks.
    if (depth + stack.length >= MAX_TAG_DEPTH) return push(textParagraph(node.value));
    push(block);
    stack.push(block);
  });
  return out;
}

/** In place, recursively: every flow container's children get their tags paired. */
export function nestTags(node: RootContent | Parent, depth = 0, budget: Budget = { bytes: REPARSE_BUDGET_BYTES }): void {
  if (!('children' in node)) return;
  if (node.type === 'root' || node.type === 'blockquote' || node.type === 'listItem' || node.type === 'footnoteDefinition') {
    node.children = nestChildren(node.children as RootContent[], depth, budget) as typeof node.children;
  } else if (node.type === 'list') {
    node.children.forEach((item) => nestTags(item, depth, budget));
  }
}
