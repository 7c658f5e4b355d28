import { createHash } from 'node:crypto';

/**
 * Response headers of the reader. Inline `<script>` and `<style>` are allowed by their
 * SHA-256 hash, not by a nonce: the same rendering gives the same policy, so ETags and
 * shared caches keep working; a script or style injected into a page has no matching hash.
 */

/** A CSP source for an inline script or style. */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface PolicyInput {
  /** Inline scripts and styles of the page (exact text between the tags). */
  scripts: string[];
  styles: string[];
  /** Origins images come from besides 'self' and any https: (presigned storage URLs). */
  imageOrigins?: string[];
  /** Also allow the reader's own stylesheet and script, served from this origin (shared/reader/assets.ts). */
  self?: boolean;
}

/** The policy of an HTML page: nothing runs or loads that the page did not name. */
export function pagePolicy(input: PolicyInput): string {
  const images = ["'self'", 'https:', 'data:', ...(input.imageOrigins ?? [])];
  const sources = (inline: string[]) => [...inline.map(hashSource), ...(input.self ? ["'self'"] : [])].join(' ') || "'none'";
  return [
    "default-src 'none'",
    `script-src ${sources(input.scripts)}`,
    `style-src ${sources(input.styles)}`,
    `img-src ${[...new Set(images)].join(' ')}`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of everything else the reader serves (markdown, text, XML, JSON). */
export const NON_HTML_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers on every reader response (the page's own policy replaces the default one). */
export const BASE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': NON_HTML_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // frame-ancestors for browsers that predate it.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
