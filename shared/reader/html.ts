/** HTML escaping for the reader's templates: every interpolated value goes through one of these. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** An attribute-safe URL: scripts and unknown schemes become '#'. */
export function safeUrl(url: unknown): string {
  const value = String(url ?? '').trim();
  if (/^(https?:|mailto:|tel:)/i.test(value) || /^[/#?.]/.test(value) || !/^[a-z][a-z0-9+.-]*:/i.test(value)) return escapeHtml(value);
  return '#';
}

/** A CSS color value from customization (hex or a simple name), else the fallback. */
export function safeColor(value: unknown, fallback: string): string {
  const v = String(value ?? '');
  return /^#[0-9a-f]{3,8}$/i.test(v) || /^[a-z]{3,20}$/i.test(v) ? v : fallback;
}

/** Heading anchors: lower-case words joined by dashes. */
export function anchorOf(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'section';
}
