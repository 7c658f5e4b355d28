import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { WEB_FONTS, type WebFont } from './web-font-files.ts';
import { definitionFont, isFontDefinition } from './font-definitions.ts';

/**
 * A site's font (`styling.font`) and code font (`styling.monospaceFont`) served from the site
 * itself: `~assets/fonts/<hash>.woff2` (the hash of the bytes, so cached for a year), declared by
 * `@font-face` rules with `font-display: swap` in the page's hashed inline style, so only the
 * chosen fonts' files are ever referenced. The text font's files are preloaded (every page uses
 * them); the code font's are not (fetched only by a page that lays out code, as `@font-face`
 * files are). Fonts without files (ABCFavorit) fall back to the system stack. A font definition
 * of the site's own is loaded from its URLs (shared/reader/font-definitions.ts), for either.
 */

/** The latin subset's characters (as @fontsource declares them): other scripts use the fallback fonts. */
const LATIN_RANGE = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';

export const FONT_TYPE = 'font/woff2';

interface FontFile {
  /** `<hash>.woff2` */
  name: string;
  weight: number;
  bytes: Buffer;
}

const packages = createRequire(import.meta.url);
const loaded = new Map<string, FontFile[]>();
const byName = new Map<string, FontFile>();

/** Where a font file is: the Lambda bundle's `READER_FONT_DIR` (files copied flat), else its package. */
function fontPath(pkg: string, file: string): string {
  const dir = process.env.READER_FONT_DIR;
  return dir ? join(dir, file.split('/').pop()!) : packages.resolve(`${pkg}/${file}`);
}

/** The files of a font of the public list, read and hashed once per process. */
function fontFiles(font: string): FontFile[] | undefined {
  const spec = Object.hasOwn(WEB_FONTS, font) ? WEB_FONTS[font] : undefined;
  if (!spec) return undefined;
  let files = loaded.get(font);
  if (!files) {
    files = spec.files.map(({ weight, pkg, file }) => {
      const bytes = readFileSync(fontPath(pkg, file));
      return { name: `${createHash('sha256').update(bytes).digest('base64url').slice(0, 16)}.woff2`, weight, bytes };
    });
    for (const f of files) byName.set(f.name, f);
    loaded.set(font, files);
  }
  return files;
}

/** The font file with this name (`<hash>.woff2`), if it is one of the bundled fonts'. */
export function findFontFile(name: string): Buffer | undefined {
  if (!byName.has(name)) for (const font of Object.keys(WEB_FONTS)) fontFiles(font);
  return byName.get(name)?.bytes;
}

export interface SiteFont {
  /** CSS family name. */
  family: string;
  /** `@font-face` rules. */
  css: string;
  /** URLs of the files, for `<link rel=preload>`. */
  urls: string[];
  /** Origins of files on other sites (a font definition's), which the page's CSP allows in `font-src`. */
  origins: string[];
}

/** A bundled font of the list's `kind`: its `@font-face` rules with the files' URLs under the site. */
function bundledFont(font: unknown, kind: WebFont['kind'], siteBase: string): SiteFont | undefined {
  if (typeof font !== 'string' || !Object.hasOwn(WEB_FONTS, font) || WEB_FONTS[font]!.kind !== kind) return undefined;
  const files = fontFiles(font)!;
  const family = WEB_FONTS[font]!.family;
  const url = (f: FontFile) => `${siteBase}/~assets/fonts/${f.name}`;
  const css = files.map((f) => `@font-face{font-family:"${family}";font-style:normal;font-weight:${f.weight};font-display:swap;src:url(${url(f)}) format("woff2");unicode-range:${LATIN_RANGE}}`).join('');
  return { family, css, urls: files.map(url), origins: [] };
}

/** The site's font: a bundled web font with its rules and URLs under the site, or a font definition of its own. */
export function siteFont(font: unknown, siteBase: string): SiteFont | undefined {
  return isFontDefinition(font) ? definitionFont(font) : bundledFont(font, 'text', siteBase);
}

/**
 * The code font: a bundled code font (`CustomizationDefaultMonospaceFont`) with its rules under
 * the site, or a font definition of its own. Not preloaded (`urls` empty): a page without code
 * never fetches it.
 */
export function monospaceFont(font: unknown, siteBase: string): SiteFont | undefined {
  if (isFontDefinition(font)) return definitionFont(font);
  const bundled = bundledFont(font, 'code', siteBase);
  return bundled && { ...bundled, urls: [] };
}
