import type { ElementContent } from 'hast';
import { h } from 'hastscript';

/**
 * Text helpers shared by the index (term normalization) and the results (excerpts).
 * The tokenizer is MiniSearch's default (split on spaces and punctuation); terms are
 * lower-cased and stripped of diacritics, so "Déployer" finds "deployer".
 */
const WORD = /[^\n\r\p{Z}\p{P}]+/gu;

export function normalizeTerm(term: string): string {
  return term.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export const EXCERPT_LENGTH = 200;
const LEAD = 60;

/**
 * Up to ~200 characters of `body` around the first word whose normalized form is one of
 * `terms` (the index terms a result matched), cut at word boundaries, with "…" where text
 * was cut. Without a match in the body (e.g. a heading match): the start of the body.
 */
export function excerpt(body: string, terms: Iterable<string>): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= EXCERPT_LENGTH) return text;
  const wanted = new Set(terms);
  let at = 0;
  for (const match of text.matchAll(WORD)) {
    if (wanted.has(normalizeTerm(match[0]))) {
      at = match.index;
      break;
    }
  }
  let start = Math.max(0, at - LEAD);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < at ? space + 1 : start;
  }
  const budget = EXCERPT_LENGTH - (start > 0 ? 1 : 0) - 1;
  let end = Math.min(text.length, start + budget);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * An excerpt as hast nodes with the matched words in `<mark>` (the reader's search results);
 * the text stays text nodes, escaped on output, and the result goes through the reader's
 * sanitizer like every other HTML.
 */
export function highlightedExcerpt(text: string, terms: Iterable<string>): ElementContent[] {
  const wanted = new Set(terms);
  const out: ElementContent[] = [];
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!wanted.has(normalizeTerm(match[0]))) continue;
    if (match.index > last) out.push({ type: 'text', value: text.slice(last, match.index) });
    out.push(h('mark', match[0]));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ type: 'text', value: text.slice(last) });
  return out;
}

/** The normalized words of a query (what the reader highlights in its results). */
export function queryTerms(query: string): string[] {
  return [...query.matchAll(WORD)].map((m) => normalizeTerm(m[0]));
}
