import { channel } from 'node:diagnostics_channel';
import { SizedLru } from '../../shared/sized-lru.ts';
import type { RenderedPage } from '../../shared/reader/layout.ts';

/** Characters of rendered pages an instance keeps (~48 MB of heap: some 500 pages of 20–60 KB). */
export const RENDERED_PAGES_CHARS = 24 * 1024 * 1024;

/** Each page rendered (a miss), with its ETag: how tests see what was rendered and what was served again. */
export const pageRenders = channel('docs-service:reader-page-render');

/** A page's HTML with its policy, or its markdown. */
const rendered = new SizedLru<RenderedPage | string>(RENDERED_PAGES_CHARS);

/**
 * Pages this instance rendered, by ETag. The ETag hashes everything a page's bytes depend on
 * (the site's structure version and record, its spaces' records, the revision, the path and
 * format, the visitor's claims, the customization, scripts, specs and integration renders):
 * it is what tells a browser that its copy is still the page, so two requests with one ETag
 * get the same bytes and the second need not render them again (a warm page view spent most
 * of its CPU rendering, sanitizing and serializing the HTML). Only pages a browser may
 * revalidate are kept (`reusable`): share-link and visitor-auth pages are rendered each
 * time. The format is part of the ETag, so an entry is always of the kind asked for.
 */
export async function renderedOnce<T extends RenderedPage | string>(
  { etag, reusable }: { etag: string; reusable: boolean },
  render: () => Promise<T>,
): Promise<T> {
  const kept = reusable ? rendered.get(etag) : undefined;
  if (kept !== undefined) return kept as T;
  const answer = await render();
  if (pageRenders.hasSubscribers) pageRenders.publish({ etag });
  if (reusable) rendered.set(etag, answer, typeof answer === 'string' ? answer.length : answer.html.length + answer.csp.length);
  return answer;
}
