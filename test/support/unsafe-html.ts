import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** Markdown as HTML the way a careless consumer renders it: CommonMark + GFM, raw HTML passed through. */
export function renderMarkdownUnsafely(markdown: string): string {
  const processor = unified().use(remarkParse).use(remarkGfm);
  const mdast = processor.runSync(processor.parse(markdown)) as Parameters<typeof toHast>[0];
  return toHtml(toHast(mdast, { allowDangerousHtml: true }), { allowDangerousHtml: true });
}

/**
 * What in a reader page could run script, found with an HTML parser (not the service's
 * sanitizer) and the WHATWG URL parser: elements that execute or embed, event-handler and
 * style attributes, URL attributes whose resolved scheme is not http(s), mailto or tel.
 * The reader shell's own search form, inline script (no src) and `<style>` are expected once
 * each (none with `shell: false`); another one is reported. So is any `<script src>` but the
 * shell's own static script (a same-origin `/s/<site>/~assets/reader.<hash>.js`, with `shell`).
 */
const SHELL_SCRIPT = /^\/s\/[A-Za-z0-9_-]{1,64}\/~assets\/reader\.[A-Za-z0-9_-]{12}\.js$/;
const FORBIDDEN = new Set(['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'svg', 'math', 'template', 'noscript', 'xmp', 'textarea', 'isindex', 'video', 'audio', 'source']);
const URL_PROPERTIES = ['href', 'src', 'action', 'formAction', 'xLinkHref', 'background', 'dynsrc', 'lowsrc', 'data', 'poster', 'srcSet', 'cite', 'ping', 'codeBase'];
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

export function unsafeParts(html: string, { shell = true } = {}): string[] {
  const allowed = shell ? 1 : 0;
  const problems: string[] = [];
  const counts = { script: 0, shellScript: 0, style: 0, form: 0 };
  const visit = (node: Nodes) => {
    if (node.type === 'element') check(node);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  const check = (el: Element) => {
    const name = el.tagName.toLowerCase();
    if (FORBIDDEN.has(name)) problems.push(`<${name}>`);
    if (name === 'script') {
      const src = el.properties.src;
      if (src === undefined) counts.script++;
      else if (!(shell && SHELL_SCRIPT.test(String(src)) && ++counts.shellScript === 1)) problems.push('<script src>');
    }
    if (name === 'style') counts.style++;
    if (name === 'form') counts.form++;
    if (name === 'meta' && el.properties.httpEquiv !== undefined) problems.push('<meta http-equiv>');
    for (const [key, value] of Object.entries(el.properties)) {
      if (/^on/i.test(key)) problems.push(`<${name} ${key}>`);
      if (key === 'style') problems.push(`<${name} style="${String(value)}">`);
      if (URL_PROPERTIES.includes(key)) {
        const url = Array.isArray(value) ? value.join(' ') : String(value);
        const scheme = URL.canParse(url, 'https://reader.test/') ? new URL(url, 'https://reader.test/').protocol : 'unparsable';
        if (!ALLOWED_SCHEMES.has(scheme)) problems.push(`<${name} ${key}="${url}">`);
      }
    }
  };
  visit(fromHtml(html));
  if (counts.script > allowed) problems.push(`${counts.script} scripts`);
  if (counts.style > allowed) problems.push(`${counts.style} styles`);
  if (counts.form > allowed) problems.push(`${counts.form} forms`);
  return problems;
}
