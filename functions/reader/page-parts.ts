import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { findPage, type LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest } from '../../shared/content/types.ts';
import type { Customization, LinkResolver } from '../../shared/reader/layout.ts';
import type { ReaderSpace } from '../../shared/reader/site.ts';

/**
 * Parts of a page around its document: the meta line (last updated, edit on Git, page
 * actions) and how customization links (content refs) resolve in the open site space.
 */

/** A customization link's href: URLs as written, pages of this site space by id, else '#'. */
export function linkResolver(manifest: Manifest, space: ReaderSpace): LinkResolver {
  return (to) => {
    if (typeof to === 'string') return to;
    const ref = (to ?? {}) as { kind?: string; url?: string; page?: string; anchor?: string };
    if (ref.kind === 'url' && typeof ref.url === 'string') return ref.url;
    if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') {
      const page = findPage(manifest, ref.page);
      if (page) return `${space.basePath}/${page.path}${ref.kind === 'anchor' && ref.anchor ? `#${ref.anchor}` : ''}`;
    }
    return typeof ref.url === 'string' ? ref.url : '#';
  };
}

/** The page's source file in the synced repository (GitHub and GitLab URL shapes), when there is one. */
function editOnGitHref(space: ReaderSpace, located: LocatedPage): string | undefined {
  const repo = space.space.gitSync?.url;
  const path = located.page.git?.path;
  if (!repo || !path || !/^https:\/\//.test(repo)) return undefined;
  const base = repo.replace(/\.git$/, '').replace(/\/+$/, '');
  const blob = space.space.gitSync?.installationProvider === 'gitlab' ? '-/blob' : 'blob';
  return `${base}/${blob}/HEAD/${path.split('/').map(encodeURIComponent).join('/')}`;
}

export function pageMeta(input: { customization: Customization; space: ReaderSpace; located: LocatedPage; markdownHref: string; pdfHref?: string }): ElementContent[] {
  const { customization: c, located } = input;
  const parts: ElementContent[] = [];
  if (located.page.layout?.metadata !== false && located.page.updatedAt) {
    const date = new Date(located.page.updatedAt);
    if (!Number.isNaN(date.getTime())) {
      parts.push(h('span', ['Last updated ', h('time', { dateTime: date.toISOString() }, date.toISOString().slice(0, 10))]));
    }
  }
  const edit = c.git.showEditLink ? editOnGitHref(input.space, located) : undefined;
  if (edit) parts.push(h('a.edit-link', { href: edit, rel: ['noopener'] }, 'Edit on Git'));
  if (c.pageActions.markdown) parts.push(h('span.page-actions', h('a', { href: input.markdownHref }, 'View as Markdown')));
  if (input.pdfHref && c.pageActions.items.includes('pdf')) parts.push(h('span.page-actions', h('a', { href: input.pdfHref }, 'Export as PDF')));
  return parts.length > 0 ? [h('div.page-meta', parts)] : [];
}
