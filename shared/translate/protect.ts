/**
 * Spans of prose text that must reach the reader exactly as written, so they are never sent
 * to a translation provider: URLs, variables and expressions (`{{ space.vars.x }}`), GitBook
 * block markup (`{% hint %}`) and raw HTML tags typed into text. Each becomes a placeholder
 * in the segment (shared/translate/markup.ts) and is put back from the source.
 */
const PROTECTED = new RegExp([
  String.raw`\{\{[\s\S]*?\}\}`, // expressions
  String.raw`\{%[\s\S]*?%\}`, // block markup
  String.raw`</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>`, // raw HTML tags
  String.raw`\b(?:[a-z][a-z0-9+.-]*://|mailto:|www\.)[^\s<>"'\u00a0]*[^\s<>"'\u00a0.,;:!?)\]]`, // URLs
].join('|'), 'giu');

export interface TextPiece {
  text: string;
  /** True for a span that is kept as written. */
  kept: boolean;
}

/** `text` cut into prose pieces and protected pieces, in order. */
export function protectedPieces(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), kept: false });
    pieces.push({ text: match[0], kept: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), kept: false });
  return pieces;
}

/** Words a reader would count (letters or digits between separators). */
export function countWords(text: string): number {
  let words = 0;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const part of segmenter.segment(text)) if (part.isWordLike) words++;
  return words;
}

/** True when the text holds something to translate (a letter). */
export const hasProse = (text: string) => /\p{L}/u.test(text);
