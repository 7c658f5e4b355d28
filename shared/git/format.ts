/**
 * The repository format: `.gitbook.yaml`, `SUMMARY.md` and repository paths. Pure
 * functions, shared by import and export.
 */
import YAML from 'yaml';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { List, ListItem, Nodes, PhrasingContent, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { toMarkdown } from 'mdast-util-to-markdown';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { Element, RootContent as HastContent } from 'hast';
import { slugify } from '../content/tree.ts';
import { decodeTargetPath } from '../content/markdown/refs.ts';
import { fastMdast } from '../content/markdown/fast-mdast.ts';

/** SUMMARY.md is plain CommonMark: GitBook's syntax extensions mean nothing in a table of contents. */
const summaryParser = unified().use(remarkParse).freeze();

/** BOM and zero-width characters that editors leave in files. */
const INVISIBLE = /[\uFEFF\u200B-\u200D\u2060]/g;

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** A directory path: no `./`, no leading or trailing slash; '' for the top. */
export function normalizeDirectory(path: string | undefined): string {
  let out = stripInvisible(path ?? '').trim().replace(/\\/g, '/');
  out = out.replace(/^(\.\/)+/, '').replace(/^\/+/, '').replace(/\/+$/, '');
  return out === '.' ? '' : normalizePath(out);
}

/** Resolves `.` and `..` segments; never climbs above the top. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter(Boolean).join('/'));
}

/** `target` relative to the directory `fromDir` (both from the same top). */
export function relativePath(fromDir: string, target: string): string {
  const from = fromDir ? fromDir.split('/') : [];
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const ups = from.length - common;
  return [...Array(ups).fill('..'), ...to.slice(common)].join('/');
}

/** A markdown link target, in `<...>` when it holds spaces or parentheses. */
export function linkTarget(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path}>` : path;
}

export interface GitbookConfig {
  /** Root of the content, relative to the project directory ('' = the project directory). */
  root: string;
  readme: string;
  summary: string;
  redirects: Record<string, string>;
}

/** `.gitbook.yaml`: tolerant of an empty file, `./` and trailing slashes, BOM and zero-width characters. */
export function parseGitbookYaml(text: string | undefined): GitbookConfig {
  let value: Record<string, unknown> = {};
  if (text !== undefined) {
    const cleaned = stripInvisible(text);
    if (cleaned.trim() !== '') {
      try {
        const parsed = YAML.parse(cleaned) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
      } catch (error) {
        throw new Error(`.gitbook.yaml is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  const structure = (value.structure && typeof value.structure === 'object' ? value.structure : {}) as Record<string, unknown>;
  const file = (name: unknown, fallback: string) => (typeof name === 'string' && normalizeDirectory(name)) || fallback;
  const redirects: Record<string, string> = {};
  if (value.redirects && typeof value.redirects === 'object') {
    for (const [from, to] of Object.entries(value.redirects)) if (typeof to === 'string') redirects[from] = to;
  }
  return {
    root: typeof value.root === 'string' ? normalizeDirectory(value.root) : '',
    readme: file(structure.readme, 'README.md'),
    summary: file(structure.summary, 'SUMMARY.md'),
    redirects,
  };
}

/** One entry of the table of contents. */
export interface SummaryEntry {
  title: string;
  /** A page: path of its file, relative to the SUMMARY's directory, as written (decoded). */
  path?: string;
  /** A link page. */
  href?: string;
  children: SummaryEntry[];
}

export interface SummaryGroup {
  /** undefined for the entries before the first `##` heading. */
  title?: string;
  /** The group's slug when it is not its title's (`## Title <a href="#x" id="x"></a>`). */
  anchor?: string;
  entries: SummaryEntry[];
}

/** Where GitBook keeps a repository's files and reusable contents (content paths). */
export const ASSETS_DIR = '.gitbook/assets';
export const INCLUDES_DIR = '.gitbook/includes';

/** A SUMMARY link to a URL (a link page) rather than to a file. */
export const EXTERNAL_LINK = /^[a-z][a-z0-9+.-]*:|^\/\//i;

/**
 * SUMMARY.md: `#` is the title of the table of contents, `##` headings are page groups,
 * nested bullet lists (`*` or `-`, any indent) are the tree, a link to a file is a page,
 * a link to a URL is a link page, and the link text is the title.
 */
export function parseSummary(markdown: string): SummaryGroup[] {
  const source = stripInvisible(markdown);
  // Without tag lines, a page the fast path takes is plain CommonMark's tree (fast-mdast.ts).
  const tree = (!source.includes('{%') && fastMdast(source, false)) || summaryParser.parse(source);
  const groups: SummaryGroup[] = [{ entries: [] }];
  for (const node of tree.children as RootContent[]) {
    // A group heading's anchor (`## Title <a href="#x" id="x"></a>`) is not part of its title:
    // it is the group's slug, kept when it is not the title's own.
    if (node.type === 'heading' && node.depth >= 2) {
      const title = toString(node, { includeHtml: false }).trim();
      const anchor = headingAnchor(node.children);
      groups.push({ title, ...(anchor && anchor !== slugify(title) ? { anchor } : {}), entries: [] });
    }
    else if (node.type === 'list') groups.at(-1)!.entries.push(...listEntries(node));
  }
  return groups.filter((g, i) => i > 0 || g.entries.length > 0);
}

/** The `id` of an `<a>` in a heading's HTML. */
function headingAnchor(children: PhrasingContent[]): string | undefined {
  const html = children.filter((c) => c.type === 'html').map((c) => (c as { value: string }).value).join('');
  if (!html) return undefined;
  const find = (nodes: HastContent[]): Element | undefined => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      if (node.tagName === 'a' && typeof node.properties.id === 'string' && node.properties.id !== '') return node;
      const inner = find(node.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(fromHtml(html, { fragment: true }).children)?.properties.id as string | undefined;
}

function listEntries(list: List): SummaryEntry[] {
  const out: SummaryEntry[] = [];
  for (const item of list.children as ListItem[]) {
    const paragraph = item.children.find((c) => c.type === 'paragraph');
    const link = paragraph ? findLink(paragraph.children) : undefined;
    const children = item.children.filter((c): c is List => c.type === 'list').flatMap(listEntries);
    if (!link) {
      // A bullet without a link is not a page: its children move up.
      out.push(...children);
      continue;
    }
    const title = toString(link).trim();
    const url = link.url.trim();
    if (EXTERNAL_LINK.test(url)) out.push({ title, href: url, children });
    else out.push({ title, path: decodeTargetPath(url.split('#')[0]!), children });
  }
  return out;
}

function findLink(nodes: PhrasingContent[]): Extract<Nodes, { type: 'link' }> | undefined {
  for (const node of nodes) {
    if (node.type === 'link') return node;
    if ('children' in node) {
      const inner = findLink(node.children as PhrasingContent[]);
      if (inner) return inner;
    }
  }
  return undefined;
}

// Characters that may make markdown of a title mean something else than its text.
const MARKDOWN_SIGNIFICANT = /[*_`<>&!~$|#{}\\[\]]|^[\s\d+=-]|\s$/;

/**
 * A title as SUMMARY.md writes it (link text, or a group's heading), such that parseSummary
 * reads back the same title: as written when it does (GitBook's own files print back
 * unchanged), else escaped by mdast-util-to-markdown (a title `Use \`npm\` *now*` would read
 * back as "Use npm now", `a <b>` would lose its tag). Line breaks, which would end the
 * entry and start another, are spaces (titles taken through the API have none).
 */
function summaryText(title: string, as: 'link' | 'heading'): string {
  const line = title.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
  const print = (text: string) => (as === 'link' ? `* [${text}](page.md)` : `## ${text}`);
  const reads = (text: string) => {
    const [group] = parseSummary(print(text));
    return (as === 'link' ? group?.entries[0]?.title : group?.title) === line;
  };
  const plain = as === 'link' ? line.replace(/([[\]\\])/g, '\\$1') : line;
  if (!MARKDOWN_SIGNIFICANT.test(line) || reads(plain)) return plain;
  return toMarkdown({ type: 'paragraph', children: [{ type: 'text', value: line }] }).trimEnd().replace(/(?<!\\)\]/g, '\\]');
}

/** SUMMARY.md as export writes it. */
export function printSummary(groups: SummaryGroup[]): string {
  const lines = ['# Table of contents', ''];
  const entry = (e: SummaryEntry, depth: number) => {
    lines.push(`${'  '.repeat(depth)}* [${summaryText(e.title, 'link')}](${linkTarget(e.href ?? e.path ?? '')})`);
    for (const child of e.children) entry(child, depth + 1);
  };
  for (const [index, group] of groups.entries()) {
    if (group.title !== undefined) {
      if (index > 0 || lines.length > 2) lines.push('');
      const anchor = group.anchor ? ` ${toHtml({ type: 'element', tagName: 'a', properties: { href: `#${group.anchor}`, id: group.anchor }, children: [] })}` : '';
      lines.push(`## ${summaryText(group.title, 'heading')}${anchor}`, '');
    }
    for (const e of group.entries) entry(e, 0);
  }
  return `${lines.join('\n')}\n`;
}

/** Whether two tables of contents say the same thing (whatever their formatting). */
export function sameSummary(a: SummaryGroup[], b: SummaryGroup[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
