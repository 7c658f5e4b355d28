/**
 * The fonts PDFs are written with: Noto fonts from npm (SIL Open Font License), read from
 * the package files at run time (in a Lambda bundle, from `PDF_FONT_DIR`, where the CDK
 * bundling copies them) and subset per document by pdf-lib with @pdf-lib/fontkit, so a PDF
 * carries only the glyphs it uses.
 *   Noto Sans (regular, bold, italic, bold italic): Latin, Cyrillic, Greek
 *   Noto Sans Mono (regular, bold): code
 *   Noto Sans Arabic, Noto Sans Hebrew, Noto Sans SC (Chinese, Japanese kana and kanji), Noto Sans KR (Hangul)
 *   Noto Emoji (monochrome): emoji and their sequences (flags, keycaps, ZWJ sequences) as the font's ligatures
 * A character is drawn with the first font of its chain that has a glyph for it (text.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as fontkit from 'fontkit';

import { FALLBACK_FACES, FONT_FILES, type FontFace } from './font-files.ts';

export { FALLBACK_FACES, FONT_FILES, type FontFace };

/** OpenType features per face: Arabic without `ccmp`, whose decomposed dots would have no text mapping. */
export const FACE_FEATURES: Partial<Record<FontFace, Record<string, boolean>>> = { arabic: { ccmp: false } };

const packages = createRequire(import.meta.url);
const bytesCache = new Map<FontFace, Uint8Array>();
const coverageCache = new Map<FontFace, { hasGlyphForCodePoint(code: number): boolean }>();

export function fontPath(face: FontFace): string {
  const [pkg, file] = FONT_FILES[face];
  const dir = process.env.PDF_FONT_DIR;
  return dir ? join(dir, file.split('/').pop()!) : packages.resolve(`${pkg}/${file}`);
}

/** The font file's bytes, read once per process (warm Lambdas reuse them). */
export function fontBytes(face: FontFace): Uint8Array {
  let bytes = bytesCache.get(face);
  if (!bytes) {
    bytes = readFileSync(fontPath(face));
    bytesCache.set(face, bytes);
  }
  return bytes;
}

/** Whether the face has a glyph for the code point. */
export function covers(face: FontFace, codePoint: number): boolean {
  let font = coverageCache.get(face);
  if (!font) {
    font = fontkit.create(Buffer.from(fontBytes(face))) as unknown as { hasGlyphForCodePoint(code: number): boolean };
    coverageCache.set(face, font);
  }
  return font.hasGlyphForCodePoint(codePoint);
}
