import { channel } from 'node:diagnostics_channel';
import { SizedLru } from '../../shared/sized-lru.ts';
import type { KeptBytes } from '../../shared/http/compress-answers.ts';
import type { RenderedPage } from '../../shared/reader/layout.ts';

/** Bytes of rendered pages an instance keeps (some 500 pages of 20–60 KB; their gzip, about a tenth more, is not counted). */
export const RENDERED_PAGES_BYTES = 24 * 1024 * 1024;

/** Each page rendered (a miss), with its ETag: how tests see what was rendered and what was served again. */
export const pageRenders = channel('docs-service:reader-page-render');

/** A page's answer: its HTML and policy, or its markdown, as UTF-8 bytes, with their gzip once a client accepted it. */
export interface RenderedAnswer extends KeptBytes {
  /** The HTML page's Content-Security-Policy. */
  csp?: string;
}

const rendered = new SizedLru<RenderedAnswer>(RENDERED_PAGES_BYTES);

/**
 * Pages this instance rendered, by ETag. The ETag hashes everything a page's bytes depend on
 * (the site's structure version and record, its spaces' records, the revision, the path and
 * format, the visitor's claims, the customization, scripts, specs and integration renders):
 * it is what tells a browser that its copy is still the page, so two requests with one ETag
 * get the same bytes and the second need not render them again (a warm page view spent most
 * of its CPU rendering, sanitizing and serializing the HTML), nor gzip them again (~0.9 ms for
 * a 38 KB page). Only pages a browser may revalidate are kept (`reusable`): share-link and
 * visitor-auth pages are rendered each time. The format is part of the ETag, so an entry is
 * always of the kind asked for.
 */
export async function renderedOnce(
  { etag, reusable }: { etag: string; reusable: boolean },
  render: () => Promise<RenderedPage | string>,
): Promise<RenderedAnswer> {
  const kept = reusable ? rendered.get(etag) : undefined;
  if (kept !== undefined) return kept;
  const page = await render();
  const answer: RenderedAnswer = typeof page === 'string' ? { bytes: Buffer.from(page) } : { bytes: Buffer.from(page.html), csp: page.csp };
  if (pageRenders.hasSubscribers) pageRenders.publish({ etag });
  if (reusable) rendered.set(etag, answer, answer.bytes.length + (answer.csp?.length ?? 0));
  return answer;
}
