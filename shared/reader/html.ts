/** Small value checks of the reader that no HTML library does (HTML itself goes through shared/reader/sanitize.ts). */

/** A CSS color value from customization (hex or a simple name), else the fallback. */
export function safeColor(value: unknown, fallback: string): string {
  const v = String(value ?? '');
  return /^#[0-9a-f]{3,8}$/i.test(v) || /^[a-z]{3,20}$/i.test(v) ? v : fallback;
}

/**
 * Heading anchors: lower-case words joined by dashes, dots between them kept as GitBook keeps
 * them (`Release 2.19.4` is `#release-2.19.4` in the links of imported pages).
 */
export function anchorOf(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/-?\.+-?/g, (dots) => (dots.startsWith('-') || dots.endsWith('-') ? '-' : dots)).replace(/^[-.]+|[-.]+$/g, '') || 'section';
}
