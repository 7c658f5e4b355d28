/**
 * Text for the PDF's standard fonts. The 14 standard fonts need no embedding and no file
 * access, but they only encode WinAnsi (Latin-1 plus typographic quotes, dashes, bullet,
 * euro...). Everything else is brought into it: common symbols get an ASCII spelling,
 * accented letters outside the set lose their accents, pictographs (emoji) are dropped and
 * anything left becomes "?", so rendering never fails on a character.
 */

const SPELLED: Record<string, string> = {
  '\u2192': '->', '\u2190': '<-', '\u2194': '<->', '\u21d2': '=>', '\u21d0': '<=',
  '\u2264': '<=', '\u2265': '>=', '\u2260': '!=', '\u2248': '~', '\u2212': '-', '\u00d7': 'x',
  '\u2713': 'v', '\u2714': 'v', '\u2717': 'x', '\u2718': 'x',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2015': '-', '\u2043': '-',
  '\u201b': "'", '\u201f': '"', '\u2032': "'", '\u2033': '"',
  '\u2009': ' ', '\u200a': ' ', '\u2002': ' ', '\u2003': ' ', '\u202f': ' ', '\u2007': ' ',
  '\u00ad': '',
};

/** Zero-width and formatting characters that have no glyph and no spelling. */
const INVISIBLE = /[\u200b-\u200f\u2028\u2029\u2060-\u2064\ufe00-\ufe0f\ufeff]|\p{Cc}/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1f3fb}-\u{1f3ff}]/u;

export type Charset = ReadonlySet<number>;

/**
 * `text` spelled with the characters of `charset` only. Tabs become `tabWidth` spaces
 * (code keeps its indentation); line feeds are kept when `keepNewlines` (hard breaks).
 */
export function toCharset(text: string, charset: Charset, options: { tabWidth?: number; keepNewlines?: boolean } = {}): string {
  const tab = ' '.repeat(options.tabWidth ?? 4);
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n')) {
    if (char === '\n') {
      out += options.keepNewlines ? '\n' : ' ';
      continue;
    }
    if (char === '\t') {
      out += tab;
      continue;
    }
    const code = char.codePointAt(0)!;
    if (charset.has(code)) {
      out += char;
      continue;
    }
    if (char in SPELLED) {
      out += [...SPELLED[char]!].filter((c) => charset.has(c.codePointAt(0)!)).join('');
      continue;
    }
    INVISIBLE.lastIndex = 0;
    if (INVISIBLE.test(char) || PICTOGRAPH.test(char)) continue;
    const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
    out += stripped && [...stripped].every((c) => charset.has(c.codePointAt(0)!)) ? stripped : '?';
  }
  return out;
}
