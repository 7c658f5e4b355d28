import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';

/**
 * The page a browser gets after an SSO login without a RelayState to return to: the
 * access token, shown this once (the service keeps only its hash).
 */
export function tokenPage(input: { email: string; organization: string; token: string; expiresAt: string }): string {
  const tree = h(null, [
    { type: 'doctype' },
    h('html', { lang: 'en' }, [
      h('head', [h('meta', { charset: 'utf-8' }), h('meta', { name: 'robots', content: 'noindex' }), h('title', 'Signed in')]),
      h('body', [
        h('h1', 'Signed in'),
        h('p', `Signed in to organization ${input.organization} as ${input.email}.`),
        h('p', 'Your access token, shown only this once:'),
        h('pre', h('code', { id: 'token' }, input.token)),
        h('p', `Use it as "Authorization: Bearer <token>". It expires at ${input.expiresAt}.`),
      ]),
    ]),
  ]);
  return toHtml(tree);
}
