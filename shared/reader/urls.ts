import { LINK_PROTOCOLS } from './schema.ts';

/** Link targets outside HTML (PDF annotations, markdown exports, the shell's favicon), under the sanitizer's protocol allow-list. */

const LINK_SCHEMES = new Set<string>(LINK_PROTOCOLS.map((p) => `${p}:`));

/**
 * An absolute link target (PDF link annotations, markdown exports) under the same protocol
 * allow-list as the sanitizer, parsed with the WHATWG URL parser (the one browsers use, so
 * `java\tscript:` and `JaVaScRiPt:` are seen as what they are); undefined otherwise.
 */
export function safeLinkTarget(url: unknown): string | undefined {
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return LINK_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
}

/**
 * A link for a page of the service (relative, resolved against the reader's origin) or
 * an absolute allowed one; undefined for anything else (scripts, data:, unknown schemes).
 */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  if (!URL.canParse(url, 'https://reader.invalid/')) return undefined;
  const resolved = new URL(url, 'https://reader.invalid/');
  if (!LINK_SCHEMES.has(resolved.protocol)) return undefined;
  return resolved.origin === 'https://reader.invalid' && !URL.canParse(url) ? url : resolved.href;
}
