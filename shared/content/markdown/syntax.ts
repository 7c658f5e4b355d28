/**
 * Tag lines as real markdown syntax (a micromark flow construct plus mdast and
 * to-markdown extensions). Being part of the parser means tags are never seen
 * inside fenced code, they interrupt paragraphs and lists like a heading would,
 * and they work inside list items and block quotes, where GitBook exports them
 * indented. Pairing open/close lines into containers happens afterwards (nest.ts).
 */
import type { BlockContent, DefinitionContent, Literal, Parent, Root } from 'mdast';
import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Handle, Join, Options as ToMarkdownExtension, State as ToMarkdownState, Info } from 'mdast-util-to-markdown';
import { markdownLineEnding, markdownSpace } from 'micromark-util-character';
import type { Code, Construct, Extension as MicromarkExtension, State, TokenizeContext, Effects } from 'micromark-util-types';
import type { Processor } from 'unified';
import { formatTag } from './tags.ts';

/** One raw tag line, as parsed. */
export interface GitbookTag extends Literal {
  type: 'gitbookTag';
}

/** A paired tag with its content (`selfClosing` for `{% include %}` or an embed without end). */
export interface GitbookBlock extends Parent {
  type: 'gitbookBlock';
  name: string;
  attrs: Record<string, string>;
  args: string[];
  selfClosing?: boolean;
  /** The tag's text after its name, printed as is (the expression of `{% if %}`). */
  raw?: string;
  children: (BlockContent | DefinitionContent)[];
}

declare module 'mdast' {
  interface BlockContentMap {
    gitbookTag: GitbookTag;
    gitbookBlock: GitbookBlock;
  }
  interface RootContentMap {
    gitbookTag: GitbookTag;
    gitbookBlock: GitbookBlock;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    gitbookTag: 'gitbookTag';
    gitbookTagValue: 'gitbookTagValue';
  }
}

const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;
const PERCENT = 37;
const DASH = 45;

const AT = 64;
const SLASH = 47;
const DOT = 46;

/**
 * Tag names: `hint`, `endhint`, ...; and GitBook's integration blocks, `@github-files/github-code-block`
 * (an `@`, the integration, `/`, the block) and their end tags `end@x/y`.
 */
function isNameChar(code: Code, name: string): boolean {
  if (code === null) return false;
  const letter = code >= 97 && code <= 122;
  if (name === '') return letter || code === AT;
  if (code === AT) return name === 'end';
  const integration = name.includes('@');
  const upper = code >= 65 && code <= 90;
  return letter || (code >= 48 && code <= 57) || code === 45 || code === 95 || (integration && (upper || code === SLASH || code === DOT));
}

/**
 * An integration tag's values may span lines (GitBook writes a Mermaid diagram's source in
 * `content="..."` as is, blank lines included): up to this many characters per tag, and per
 * page at most MULTILINE_BUDGET characters scanned by integration tags that never close, so
 * a page of unclosed `{% @x` lines still parses in linear time.
 */
const MAX_MULTILINE_TAG = 64 * 1024;
const MULTILINE_BUDGET = 1024 * 1024;
const multilineSpent = new WeakMap<object, { chars: number }>();

/** At a line ending: the next line continues the current containers (not a lazy line). */
const nonLazyLine: Construct = {
  partial: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    return (code: Code) => {
      if (code === null) return nok(code);
      effects.enter('lineEnding');
      effects.consume(code);
      effects.exit('lineEnding');
      return (next: Code) => (self.parser.lazy[self.now().line] ? nok(next) : ok(next));
    };
  },
};

/** Matches a whole line `{% name ... %}` (trailing spaces allowed). */
function tokenizeTag(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const self = this;
  let name = '';
  /** Characters consumed after the first line ending (multi-line integration tags only). */
  let extra = 0;
  let valueOpen = true;
  const spent = () => {
    let entry = multilineSpent.get(self.parser);
    if (!entry) multilineSpent.set(self.parser, (entry = { chars: 0 }));
    return entry;
  };
  const fail = (code: Code) => {
    if (extra > 0) spent().chars += extra;
    return nok(code);
  };
  return start;

  function start(code: Code): State | undefined {
    if (code !== LEFT_BRACE) return nok(code);
    effects.enter('gitbookTag');
    // The tag's text, one value token per line (a multi-line integration tag has line endings between).
    effects.enter('gitbookTagValue');
    effects.consume(code);
    return percent;
  }
  function percent(code: Code): State | undefined {
    if (code !== PERCENT) return nok(code);
    effects.consume(code);
    return trim;
  }
  // Liquid's whitespace control: `{%- name -%}`.
  function trim(code: Code): State | undefined {
    if (code !== DASH) return beforeName(code);
    effects.consume(code);
    return beforeName;
  }
  function beforeName(code: Code): State | undefined {
    if (markdownSpace(code)) {
      effects.consume(code);
      return beforeName;
    }
    return inName(code);
  }
  function inName(code: Code): State | undefined {
    if (isNameChar(code, name)) {
      name += String.fromCharCode(code!);
      effects.consume(code);
      return inName;
    }
    if (name === '' || name === '@' || !(markdownSpace(code) || code === PERCENT)) return nok(code);
    return inside(code);
  }
  function inside(code: Code): State | undefined {
    if (code === null) return fail(code);
    if (markdownLineEnding(code)) {
      // Only an integration tag (`{% @x/y ... %}`) goes on over lines, within its budgets.
      if (!name.startsWith('@') || extra >= MAX_MULTILINE_TAG || spent().chars >= MULTILINE_BUDGET) return fail(code);
      return effects.check(nonLazyLine, lineEnding, fail)(code);
    }
    if (extra > 0) extra++;
    effects.consume(code);
    return code === PERCENT ? closing : inside;
  }
  function lineEnding(code: Code): State | undefined {
    extra++;
    if (valueOpen) effects.exit('gitbookTagValue');
    valueOpen = false;
    effects.enter('lineEnding');
    effects.consume(code);
    effects.exit('lineEnding');
    return lineStart;
  }
  function lineStart(code: Code): State | undefined {
    // An empty line inside the value has no value token.
    if (code === null || markdownLineEnding(code)) return inside(code);
    effects.enter('gitbookTagValue');
    valueOpen = true;
    return inside(code);
  }
  function closing(code: Code): State | undefined {
    if (code !== RIGHT_BRACE) return inside(code);
    effects.consume(code);
    return after;
  }
  function after(code: Code): State | undefined {
    if (markdownSpace(code)) {
      effects.consume(code);
      return after;
    }
    if (code === null || markdownLineEnding(code)) {
      effects.exit('gitbookTagValue');
      effects.exit('gitbookTag');
      return ok(code);
    }
    // `%}` inside a value: keep looking for the real end of the tag.
    return inside(code);
  }
}

const tagConstruct: Construct = { name: 'gitbookTag', tokenize: tokenizeTag };

const syntax: MicromarkExtension = { flow: { [LEFT_BRACE]: tagConstruct } };

const fromMarkdown: FromMarkdownExtension = {
  enter: {
    gitbookTag(token) {
      this.enter({ type: 'gitbookTag', value: '' }, token);
    },
  },
  exit: {
    gitbookTag(token) {
      const node = this.stack[this.stack.length - 1] as GitbookTag;
      node.value = this.sliceSerialize(token).trim();
      this.exit(token);
    },
  },
};

const handleBlock = ((node: GitbookBlock, _parent: unknown, state: ToMarkdownState, info: Info): string => {
  const open = formatTag(node.name, node.attrs, node.args, node.raw);
  if (node.selfClosing) return open;
  const close = formatTag(`end${node.name}`);
  const body = state.containerFlow(node as unknown as Root, info);
  if (!body) return `${open}\n${close}`;
  // Like GitBook, no blank line even after HTML, which would run on over the end
  // tag in plain CommonMark; nest.ts gives such swallowed tag lines back.
  return `${open}\n${body}\n${close}`;
}) as unknown as Handle;

/** Containers whose items sit directly under each other, as GitBook writes them. */
const CONTAINERS_OF_ITEMS = new Set(['tabs', 'stepper']);

const tagName = (node: { type: string; value?: string }) =>
  node.type === 'gitbookTag' ? /^\{%-?\s*([a-z][\w-]*)/.exec(node.value ?? '')?.[1] : undefined;
const isEnd = (node: { type: string; value?: string }) => tagName(node)?.startsWith('end') ?? false;

/**
 * Tabs and steps sit directly under each other, as GitBook writes them. Raw tag
 * lines hug their content: no blank line after an opening one, before an end one,
 * or between an end and the next sibling of the same name.
 */
const joinTags: Join = (left, right, parent) => {
  const p = parent as unknown as { type: string; name?: string };
  if (p.type === 'gitbookBlock' && CONTAINERS_OF_ITEMS.has(p.name ?? '')) return 0;
  const l = left as unknown as { type: string; value?: string };
  const r = right as unknown as { type: string; value?: string };
  // HTML runs on to the next blank line and a table or HTML cannot interrupt a paragraph:
  // a blank line even in tight list items, or the next import reads them as one block.
  if (l.type === 'html') return isEnd(r) ? 0 : 1;
  if (l.type === 'paragraph' && (r.type === 'html' || r.type === 'table')) return 1;
  // An integration block (`{% @x/y ... %}`) is a whole block, not an opening tag.
  if (l.type === 'gitbookTag' && !isEnd(l) && !/^\{%-?\s*@/.test(l.value ?? '')) return 0;
  if (isEnd(r)) return 0;
  // `{% endcolumn %}` then `{% column %}`: siblings inside one container.
  if (isEnd(l) && tagName(l) === `end${tagName(r)}`) return 0;
  return undefined;
};

const toMarkdown: ToMarkdownExtension = {
  handlers: { gitbookBlock: handleBlock, gitbookTag: ((node: GitbookTag) => node.value) as unknown as Handle },
  join: [joinTags],
  // Text that would read back as a tag line gets its brace escaped.
  // Anywhere in text: `{%...%}` mid-line is a Liquid tag for GitBook too.
  unsafe: [{ character: '{', after: '%' }],
};

/** Remark plugin registering the tag syntax for parsing and stringifying. */
export function remarkGitbookTags(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(syntax);
  (data.fromMarkdownExtensions ??= []).push(fromMarkdown);
  (data.toMarkdownExtensions ??= []).push(toMarkdown);
}
