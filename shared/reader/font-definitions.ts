import type { SiteFont } from './fonts.ts';

/**
 * A site's own font (`styling.font` or `styling.monospaceFont` as the public
 * `CustomizationFontDefinitionInput`: `{id, custom, fontFamily, fontFaces: [{weight, sources:
 * [{url, format}]}]}`) as `@font-face` rules in the page's hashed style, its files loaded from
 * their own URLs. The page's CSP allows `font-src` those files' origins and nothing more
 * (`origins`). The customization operations validate the definition; it is checked again here
 * because it is written into CSS: a family or URL that could leave its quotes is never used.
 */

export interface FontDefinition {
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: string }[] }[];
}

/** A font definition's family: written into CSS, so letters, digits, spaces and `. _ -` only, at most 50. */
export const FONT_FAMILY = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,49}$/u;
/** The file formats a font definition's sources may name (the public `FontSource.format`). */
export const FONT_FORMATS = ['woff2', 'woff'] as const;

export function isFontDefinition(value: unknown): value is FontDefinition {
  const font = value as Partial<FontDefinition> | null;
  return !!font && typeof font === 'object' && typeof font.fontFamily === 'string' && Array.isArray(font.fontFaces);
}

/** An http(s) URL as CSS may quote it: WHATWG serialization percent-encodes quotes, spaces and controls. */
function fontUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // eslint-disable-next-line no-control-regex -- control characters would end the CSS string
  return /["\\\u0000-\u001f]/.test(url.href) ? undefined : url;
}

export function definitionFont(font: FontDefinition): SiteFont | undefined {
  if (!FONT_FAMILY.test(font.fontFamily)) return undefined;
  const origins = new Set<string>();
  const rules: string[] = [];
  for (const face of font.fontFaces) {
    const weight = face?.weight;
    if (!Number.isInteger(weight) || weight < 1 || weight > 1000 || !Array.isArray(face.sources)) continue;
    const sources = face.sources.flatMap((source) => {
      const url = fontUrl(source?.url);
      if (!url) return [];
      origins.add(url.origin);
      return [`url("${url.href}")${(FONT_FORMATS as readonly string[]).includes(String(source.format)) ? ` format("${source.format}")` : ''}`];
    });
    if (sources.length > 0) rules.push(`@font-face{font-family:"${font.fontFamily}";font-style:normal;font-weight:${weight};font-display:swap;src:${sources.join(',')}}`);
  }
  if (rules.length === 0) return undefined;
  // Not preloaded: the files are on another site, fetched when text first uses the font (swap keeps it readable).
  return { family: font.fontFamily, css: rules.join(''), urls: [], origins: [...origins] };
}
