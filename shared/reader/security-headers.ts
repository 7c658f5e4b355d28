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
  /** Origins of the site's own font files (a font definition's URLs, shared/reader/font-definitions.ts). */
  fontOrigins?: string[];
  /** `contentSecurityPolicy` of the integrations whose scripts the page loads (shared/reader/site-scripts.ts). */
  integrationPolicies?: string[];
}

/** Directives an integration's policy may extend (fetch directives only: never base-uri, frame-ancestors, ...). */
const EXTENDABLE = new Set(['script-src', 'connect-src', 'img-src', 'style-src', 'font-src', 'frame-src', 'media-src', 'worker-src']);
/**
 * Sources an integration may add: 'self', `https:`/`wss:`, or a host (optionally with scheme,
 * port and path). Keywords that would loosen the page for everything ('unsafe-inline',
 * 'unsafe-eval', 'strict-dynamic', nonces, hashes), `*`, `data:` and `blob:` are dropped.
 */
const ALLOWED_SOURCE = /^(?:'self'|https:|wss:|(?:(?:https?|wss?):\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[^\s;,']*)?)$/i;

/** A URL origin as a CSP host source (`https://fonts.example.com`, optionally with a port). */
const ORIGIN = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/i;

/** The fetch directives and sources of integration policies the page accepts (CSP syntax: `;`-separated directives, space-separated sources). */
export function integrationSources(policies: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const policy of policies) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      const key = name?.toLowerCase();
      if (!key || !EXTENDABLE.has(key)) continue;
      out.set(key, [...(out.get(key) ?? []), ...sources.filter((source) => ALLOWED_SOURCE.test(source))]);
    }
  }
  return out;
}

/** The policy of an HTML page: nothing runs or loads that the page did not name. */
export function pagePolicy(input: PolicyInput): string {
  const images = ["'self'", 'https:', 'data:', ...(input.imageOrigins ?? [])];
  const sources = (inline: string[]) => [...inline.map(hashSource), ...(input.self ? ["'self'"] : [])];
  const fetchDirectives = new Map<string, string[]>([
    ['script-src', sources(input.scripts)],
    ['style-src', sources(input.styles)],
    ['img-src', images],
    ['connect-src', ["'self'"]],
    // The site's web font (shared/reader/fonts.ts) is one of the reader's own files, or a
    // font definition's files at their origins (no other origin, and only when the site has one).
    ...(input.self ? [['font-src', ["'self'", ...(input.fontOrigins ?? []).filter((o) => ORIGIN.test(o))]] as [string, string[]]] : []),
  ]);
  for (const [name, added] of integrationSources(input.integrationPolicies ?? [])) {
    fetchDirectives.set(name, [...(fetchDirectives.get(name) ?? []), ...added]);
  }
  return [
    "default-src 'none'",
    ...[...fetchDirectives].map(([name, list]) => `${name} ${[...new Set(list)].join(' ') || "'none'"}`),
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
