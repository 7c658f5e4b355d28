import { createHash } from 'node:crypto';
import { READER_CSS } from './assets/style.ts';
import { READER_JS } from './assets/script.ts';

/**
 * The reader's static stylesheet and script, served under each site at
 * `/s/<site>/~assets/<name>.<hash>.<ext>`: the hash of the content is in the name, so the
 * files are cached for a year (`immutable`) and a new release changes the URL. Under the
 * site, so the page's CSP can allow them as 'self' without any inline code.
 */
export interface ReaderAsset {
  file: string;
  type: string;
  body: string;
}

function asset(name: string, ext: string, type: string, body: string): ReaderAsset {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
  return { file: `${name}.${hash}.${ext}`, type, body };
}

export const READER_ASSETS = {
  css: asset('reader', 'css', 'text/css; charset=utf-8', READER_CSS),
  js: asset('reader', 'js', 'text/javascript; charset=utf-8', READER_JS),
};

export const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** The asset with this file name, if it is one of this release's. */
export function findAsset(file: string): ReaderAsset | undefined {
  return Object.values(READER_ASSETS).find((a) => a.file === file);
}

export const assetHref = (siteBase: string, which: keyof typeof READER_ASSETS) => `${siteBase}/~assets/${READER_ASSETS[which].file}`;

/** A favicon glyph: an emoji or one letter or digit (anything else is refused). */
const GLYPH = /^(?:\p{Extended_Pictographic}[\u{FE0F}\u{200D}\p{Extended_Pictographic}]{0,6}|[A-Z0-9])$/u;

/**
 * The default favicon (sites without an icon of their own): the site's emoji or initial on
 * its primary colour, drawn as SVG from the query, so no page asks for a missing /favicon.ico.
 */
export function faviconSvg(query: { color?: string; glyph?: string }): string | undefined {
  const color = /^[0-9A-Fa-f]{3,8}$/.test(query.color ?? '') ? `#${query.color}` : undefined;
  if (!color || !query.glyph || !GLYPH.test(query.glyph)) return undefined;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${color}"/><text x="16" y="23" font-family="system-ui,sans-serif" font-size="19" font-weight="700" text-anchor="middle" fill="#fff">${query.glyph}</text></svg>`;
}

export const faviconHref = (siteBase: string, color: string, glyph: string) =>
  `${siteBase}/~assets/favicon.svg?${new URLSearchParams({ color: color.replace(/^#/, ''), glyph })}`;
