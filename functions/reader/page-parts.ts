import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { findPage, type LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest } from '../../shared/content/types.ts';
import type { Customization, LinkResolver } from '../../shared/reader/layout.ts';
import type { ReaderSpace } from '../../shared/reader/site.ts';
import { formatDate, messageParts, type ReaderIntl } from '../../shared/reader/messages.ts';

/**
 * Parts of a page around its document: the meta line (last updated, edit on Git, page
 * actions, in the site's locale, the date as it writes dates) and how customization links (content refs) resolve in the open site space.
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

export function pageMeta(input: { customization: Customization; intl: ReaderIntl; space: ReaderSpace; located: LocatedPage; markdownHref: string; pdfHref?: string }): ElementContent[] {
  const { customization: c, located, intl } = input;
  const parts: ElementContent[] = [];
  if (located.page.layout?.metadata !== false && located.page.updatedAt) {
    const date = new Date(located.page.updatedAt);
    if (!Number.isNaN(date.getTime())) {
      const time = h('time', { dateTime: date.toISOString() }, formatDate(intl, date));
      parts.push(h('span', messageParts(intl, 'lastUpdated', { date: time })));
    }
  }
  const edit = c.git.showEditLink ? editOnGitHref(input.space, located) : undefined;
  if (edit) parts.push(h('a.edit-link', { href: edit, rel: ['noopener'] }, intl.messages.editOnGit));
  if (c.pageActions.markdown) parts.push(h('span.page-actions', h('a', { href: input.markdownHref }, intl.messages.viewAsMarkdown)));
  if (input.pdfHref && c.pageActions.items.includes('pdf')) parts.push(h('span.page-actions', h('a', { href: input.pdfHref }, intl.messages.exportAsPdf)));
  return parts.length > 0 ? [h('div.page-meta', parts)] : [];
}
