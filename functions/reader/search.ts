import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { LocatedPage } from '../../shared/content/tree.ts';
import { excerpt, highlightedExcerpt, queryTerms } from '../../shared/content/search/excerpt.ts';
import { presentRankedPages, rankRevision, type RankedPage, type SearchPageResult } from '../../shared/content/search/space-search.ts';
import type { ReaderSpace, spaceContent } from '../../shared/reader/site.ts';
import { message, type ReaderIntl } from '../../shared/reader/messages.ts';

type Content = Awaited<ReturnType<typeof spaceContent>>;

/** Results listed by the search page and the instant search. */
export const READER_SEARCH_LIMIT = 20;

/** Pages of the site space matching `q`, readable ones only, best first. */
async function search(space: ReaderSpace, content: Content, pages: LocatedPage[], q: string): Promise<{ ranked: RankedPage[]; results: SearchPageResult[] }> {
  if (q.trim() === '') return { ranked: [], results: [] };
  const readable = new Set(pages.map((p) => p.page.id));
  const ranked = await rankRevision({ manifestHash: content.manifestHash, manifest: content.manifest }, q, {
    limit: READER_SEARCH_LIMIT,
    audience: 'readers',
    include: ({ page }) => readable.has(page.id),
  });
  return { ranked, results: presentRankedPages(space.space.id, ranked) };
}

/** The excerpt of a page's own text (before its first heading) when that is what matched. */
function pageExcerpt(ranked: RankedPage): string | undefined {
  const hit = ranked.hits.find((h) => !h.anchor && h.body);
  return hit ? excerpt(hit.body!, hit.terms) : undefined;
}

/** The no-JavaScript search page's body: results as a list, matched words in <mark>; its words in the site's locale. */
export async function searchResultsHtml(space: ReaderSpace, content: Content, pages: LocatedPage[], q: string, intl: ReaderIntl): Promise<ElementContent[]> {
  const heading = h('h1', message(intl, 'searchResultsFor', { query: q }));
  if (q.trim() === '') return [heading, h('p', intl.messages.searchEmpty)];
  const { ranked, results } = await search(space, content, pages, q);
  if (results.length === 0) return [heading, h('p.no-results', intl.messages.searchNoResults)];
  const terms = queryTerms(q);
  const items = results.map((r, i) => {
    const excerpt = r.sections[0]?.body ?? (pageExcerpt(ranked[i]!) || r.description);
    const anchor = r.sections[0]?.id ? `#${r.sections[0].id}` : '';
    return h('li', [
      h('a', { href: `${space.basePath}/${r.path}${anchor}` }, r.title),
      ...(r.ancestors.length ? [' ', h('small', r.ancestors.map((a) => a.title).join(' › '))] : []),
      ...(excerpt ? [h('p', highlightedExcerpt(excerpt, terms))] : []),
    ]);
  });
  return [heading, h('ol.search-results', items)];
}

/**
 * The instant search's answer (`<space>/~search?q=`): pages with their matching sections,
 * as text (the script marks the terms itself and never parses HTML from here).
 */
export async function searchResultsJson(space: ReaderSpace, content: Content, pages: LocatedPage[], q: string) {
  const { ranked, results } = await search(space, content, pages, q);
  return {
    query: q,
    pages: results.map((r, i) => ({
      title: r.title,
      href: `${space.basePath}/${r.path}`,
      breadcrumbs: [...r.ancestors.map((a) => a.title), r.title],
      excerpt: pageExcerpt(ranked[i]!) ?? r.description,
      sections: r.sections.filter((s) => s.id).map((s) => ({ title: s.title.replaceAll(' > ', ' › '), href: `${space.basePath}/${s.path}`, excerpt: s.body })),
    })),
  };
}
