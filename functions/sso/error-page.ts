import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';

/**
 * What a browser gets when a step of an SSO login fails (the IdP's form post, startURL):
 * the same status and message as the JSON error, as a page a person can read.
 */
export function errorPage(input: { status: number; message: string }): string {
  const tree = h(null, [
    { type: 'doctype' },
    h('html', { lang: 'en' }, [
      h('head', [h('meta', { charset: 'utf-8' }), h('meta', { name: 'robots', content: 'noindex' }), h('title', 'Sign-in failed')]),
      h('body', [
        h('h1', 'Sign-in failed'),
        h('p', { id: 'reason' }, input.message),
        h('p', `Error ${input.status}. Start the sign-in again from your organization's sign-in page; if it keeps failing, send this message to an administrator of the organization.`),
      ]),
    ]),
  ]);
  return toHtml(tree);
}
