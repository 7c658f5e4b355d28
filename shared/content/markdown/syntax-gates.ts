/**
 * Syntax extensions left out of a page's parse when the page cannot hold what they read.
 *
 * micromark tries an extension's constructs wherever one could start, whether or not the
 * page holds one: GFM's literal autolinks try an e-mail address at every letter, its table
 * at every block. An extension is registered here with a pattern that every token it can
 * produce contains in the raw markdown (`@`, `www.` or `http(s)://` for literal autolinks,
 * `|` for tables); a page without a match is parsed without it and gets the same tree,
 * which test/markdown-syntax-gates.test.ts checks against the stock remark plugins on a
 * corpus and generated pages. Patterns may match too much (the extension then runs),
 * never too little.
 */
import type { Extension } from 'micromark-util-types';

const gates = new WeakMap<Extension, RegExp>();

/** `extension`, parsed only in pages where `pattern` matches the raw markdown. */
export function gated(extension: Extension, pattern: RegExp): Extension {
  gates.set(extension, pattern);
  return extension;
}

/** The extensions a page is parsed with, and a key naming that set among `extensions`' subsets. */
export function extensionsFor(extensions: readonly Extension[], markdown: string): { key: number; active: Extension[] } {
  let key = 0;
  const active: Extension[] = [];
  extensions.forEach((extension, i) => {
    const pattern = gates.get(extension);
    if (pattern && !pattern.test(markdown)) key |= 1 << i;
    else active.push(extension);
  });
  return { key, active };
}
