/**
 * Text cut into runs of one font face: each character is drawn with the style's own face
 * when it has the glyph, else with the first fallback face that has it (fonts.ts). A run
 * keeps its face for the characters it also covers (spaces and punctuation between Arabic
 * words stay in the Arabic run), so a right-to-left phrase is shaped and ordered as one run.
 * Zero-width characters and pictographs (no emoji font) are dropped; a character no face has
 * loses its accents, or becomes "?", so rendering never fails on a character.
 */
import { covers, FALLBACK_FACES, FONT_FILES, type FontFace } from './fonts.ts';

/** Zero-width and formatting characters that have no glyph. */
const INVISIBLE = /[\u200b-\u200f\u2028\u2029\u2060-\u2064\ufe00-\ufe0f\ufeff]|\p{Cc}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1f3fb}-\u{1f3ff}]/u;

export interface FaceRun {
  face: FontFace;
  text: string;
}

export function faceRuns(text: string, primary: FontFace, options: { tabWidth?: number; keepNewlines?: boolean } = {}): FaceRun[] {
  const tab = ' '.repeat(options.tabWidth ?? 4);
  const runs: FaceRun[] = [];
  const push = (face: FontFace, chars: string) => {
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += chars;
    else runs.push({ face, text: chars });
  };
  for (const char of text.replace(/\r\n?/g, '\n')) {
    if (char === '\n') {
      push(runs[runs.length - 1]?.face ?? primary, options.keepNewlines ? '\n' : ' ');
      continue;
    }
    if (char === '\t') {
      push(primary, tab);
      continue;
    }
    if (INVISIBLE.test(char) || PICTOGRAPH.test(char)) continue;
    const code = char.codePointAt(0)!;
    const current = runs[runs.length - 1]?.face;
    const face = current && current !== primary && !/\p{L}/u.test(char) && covers(current, code) ? current
      : [primary, ...FALLBACK_FACES].find((f) => covers(f, code));
    if (face) {
      push(face, char);
      continue;
    }
    const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
    push(primary, stripped && [...stripped].every((c) => covers(primary, c.codePointAt(0)!)) ? stripped : '?');
  }
  return runs;
}

/**
 * The faces a document needs: the Latin and mono faces always, a fallback face only when some
 * character of `text` needs it (a 10 MB CJK font is not parsed for a Latin document).
 */
export function neededFaces(text: string): FontFace[] {
  const needed = new Set<FontFace>((Object.keys(FONT_FILES) as FontFace[]).filter((f) => !FALLBACK_FACES.includes(f)));
  for (const char of new Set(text)) {
    const code = char.codePointAt(0)!;
    if (code < 0x250 || covers('sans', code)) continue;
    const face = FALLBACK_FACES.find((f) => covers(f, code));
    if (face) needed.add(face);
  }
  return [...needed];
}
