/**
 * Text cut into runs of one font face: each character is drawn with the style's own face
 * when it has the glyph, else with the first fallback face that has it (fonts.ts). A run
 * keeps its face for the characters it also covers (spaces and punctuation between Arabic
 * words stay in the Arabic run), so a right-to-left phrase is shaped and ordered as one run.
 * An emoji (a fully-qualified sequence as Unicode lists them: VS16, keycap, flag, skin tone,
 * ZWJ sequence) goes whole to the emoji face, whose ligatures draw it as one glyph (or as its
 * components where the font has no glyph for the whole). Zero-width characters elsewhere, and
 * pictographs no face has, are dropped; another character no face has loses its accents, or
 * becomes "?", so rendering never fails on a character.
 */
import { covers, FALLBACK_FACES, FONT_FILES, type FontFace } from './fonts.ts';

/** Zero-width and formatting characters that have no glyph. */
const INVISIBLE = /[\u200b-\u200f\u2028\u2029\u2060-\u2064\ufe00-\ufe0f\ufeff]|\p{Cc}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1f3fb}-\u{1f3ff}]/u;
// Built at run time: TypeScript's ES2023 target rejects the `v` flag (properties of strings) in a literal.
const RGI_EMOJI = new RegExp('(\\p{RGI_Emoji})', 'v');
const IS_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/** A character every emoji sequence holds: text without one skips the sequence search. */
const MAY_BE_EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u20e3]/u;

/**
 * `text` cut around its emoji sequences (fully qualified, as Unicode lists them, longest
 * first): the sequences are at the odd indexes, the text between them at the even ones.
 */
function splitAtEmoji(text: string): string[] {
  // With a capturing group, split keeps what it matched.
  return MAY_BE_EMOJI.test(text) ? text.split(RGI_EMOJI) : [text];
}

/** `text` as the characters layout may not split: code points, except that each emoji sequence is one. */
export function characters(text: string): string[] {
  return splitAtEmoji(text).flatMap((part, index) => (index % 2 === 1 ? [part] : [...part]));
}

/** The code points of an emoji sequence the emoji face draws, or undefined when `char` is not one (or the face lacks its base). */
function emojiSequence(char: string): string | undefined {
  if (!MAY_BE_EMOJI.test(char) || !IS_EMOJI.test(char) || !covers('emoji', char.codePointAt(0)!)) return undefined;
  // A component the font lacks (a newer emoji inside a ZWJ sequence) is left out rather than drawn as a box.
  return [...char].filter((c) => covers('emoji', c.codePointAt(0)!)).join('');
}

export interface FaceRun {
  face: FontFace;
  text: string;
}

/**
 * `embedded` says which fallback faces the document has (neededFaces chose them from its text):
 * a face it lacks is skipped, so text the choice did not foresee never fails the rendering.
 */
export function faceRuns(text: string, primary: FontFace, options: { tabWidth?: number; keepNewlines?: boolean; embedded?: (face: FontFace) => boolean } = {}): FaceRun[] {
  const tab = ' '.repeat(options.tabWidth ?? 4);
  const usable = (face: FontFace) => face === primary || (options.embedded?.(face) ?? true);
  const runs: FaceRun[] = [];
  const push = (face: FontFace, chars: string) => {
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += chars;
    else runs.push({ face, text: chars });
  };
  const addChar = (char: string) => {
    if (char === '\n') {
      push(runs[runs.length - 1]?.face ?? primary, options.keepNewlines ? '\n' : ' ');
      return;
    }
    if (char === '\t') {
      push(primary, tab);
      return;
    }
    if (INVISIBLE.test(char)) return;
    const code = char.codePointAt(0)!;
    const current = runs[runs.length - 1]?.face;
    // The emoji face never extends its run: digits and spaces after an emoji are text again.
    const face = current && current !== primary && current !== 'emoji' && !/\p{L}/u.test(char) && covers(current, code) ? current
      : [primary, ...FALLBACK_FACES].find((f) => usable(f) && covers(f, code));
    if (face) {
      push(face, char);
      return;
    }
    if (PICTOGRAPH.test(char)) return;
    const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
    push(primary, stripped && [...stripped].every((c) => covers(primary, c.codePointAt(0)!)) ? stripped : '?');
  };
  for (const char of characters(text.replace(/\r\n?/g, '\n'))) {
    const emoji = usable('emoji') ? emojiSequence(char) : undefined;
    if (emoji) push('emoji', emoji);
    else for (const codePoint of char) addChar(codePoint);
  }
  return runs;
}

/**
 * The faces a document needs: the Latin and mono faces always, a fallback face only when some
 * character of `text` needs it in one of those faces (a 10 MB CJK font is not parsed for a
 * Latin document, nor the emoji font for a document without emoji).
 */
export function neededFaces(text: string): FontFace[] {
  const primaries = (Object.keys(FONT_FILES) as FontFace[]).filter((f) => !FALLBACK_FACES.includes(f));
  const needed = new Set<FontFace>(primaries);
  // Emoji sequences first, so their parts (a keycap's U+20E3, a flag's letters) do not ask for other faces.
  const rest: string[] = [];
  for (const [index, part] of splitAtEmoji(text).entries()) {
    if (index % 2 === 1 && emojiSequence(part)) needed.add('emoji');
    else rest.push(part);
  }
  for (const char of new Set(rest.join(' '))) {
    const code = char.codePointAt(0)!;
    if (code < 0x250 || INVISIBLE.test(char) || primaries.every((f) => covers(f, code))) continue;
    const face = FALLBACK_FACES.find((f) => covers(f, code));
    if (face) needed.add(face);
  }
  return [...needed];
}
