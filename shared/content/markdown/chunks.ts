/**
 * Splits markdown into top-level chunks that parse to exactly the blocks the whole would.
 *
 * micromark keeps one event list per document and edits it as containers (lists, block
 * quotes) close, so a page with thousands of them parses in quadratic time (512 KB of
 * block quotes: minutes). Parsing chunks of ~CHUNK_BYTES separately keeps the cost linear.
 *
 * A chunk may start only where every block of the previous one has certainly ended: a
 * line after a blank line, at column 0, that is not a list marker (it could continue the
 * previous list) and not inside frontmatter, a fenced code block, an HTML block that
 * spans blank lines or an integration tag whose values span lines. The scan only sees
 * lines, not containers: mdast.ts checks every split after parsing and joins chunks where
 * a block was still open.
 */

/** Chunks are at least this long (bytes of UTF-16), so the per-parse setup stays negligible. */
export const CHUNK_BYTES = 8 * 1024;

const LIST_MARKER = /^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** HTML blocks of CommonMark kinds 1-5, which only end at their end marker, not at a blank line. */
const HTML_OPEN: [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

const isBlank = (line: string) => /^[ \t]*$/.test(line);
/** An integration tag (syntax.ts) whose values go on over lines, blank ones included, to a line ending `%}`. */
const INTEGRATION_OPEN = /^ {0,3}\{%-?\s*@/;
const TAG_END = /%\}[ \t]*$/;

/** The start offsets of the chunks (the first is always 0). */
export function chunkStarts(markdown: string, chunkBytes = CHUNK_BYTES): number[] {
  const starts = [0];
  let lineStart = 0;
  let previousBlank = false;
  let fence: { char: string; length: number } | undefined;
  let htmlEnd: RegExp | undefined;
  let inTag = false;
  let frontmatter = markdown.startsWith('---');
  let first = true;
  while (lineStart < markdown.length) {
    let lineEnd = markdown.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = markdown.length;
    const line = markdown.slice(lineStart, lineEnd).replace(/\r$/, '');
    if (frontmatter) {
      if (!first && /^(?:---|\.\.\.)[ \t]*$/.test(line)) frontmatter = false;
    } else if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && close[2]!.trim() === '') fence = undefined;
    } else if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = undefined;
    } else if (inTag) {
      if (TAG_END.test(line)) inTag = false;
    } else {
      if (previousBlank && lineStart - starts.at(-1)! >= chunkBytes && /^[^ \t]/.test(line) && !LIST_MARKER.test(line)) {
        starts.push(lineStart);
      }
      const open = FENCE.exec(line);
      // A backtick fence's info string cannot hold a backtick (else it is inline code).
      if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length };
      if (INTEGRATION_OPEN.test(line) && !TAG_END.test(line)) inTag = true;
      for (const [start, end] of HTML_OPEN) {
        if (start.test(line)) {
          if (!end.test(line.replace(start, ''))) htmlEnd = end;
          break;
        }
      }
    }
    previousBlank = isBlank(line);
    first = false;
    lineStart = lineEnd + 1;
  }
  return starts;
}
