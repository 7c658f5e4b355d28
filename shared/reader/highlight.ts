import type { Element } from 'hast';
import { bundledLanguages, bundledLanguagesAlias, createHighlighter, type BundledLanguage, type Highlighter } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { transformerStyleToClass, type ShikiTransformerStyleToClass } from '@shikijs/transformers';

/**
 * Server-side syntax highlighting of code blocks with shiki, in a light and a dark theme at
 * once. Token colours end up as classes (`sk-<hash>`), not `style` attributes: the page's
 * CSP allows no inline style attribute, and the sanitizer drops them; the classes' rules
 * (`--shiki-light` / `--shiki-dark` custom properties) go into the page's hashed `<style>`,
 * and the reader's stylesheet picks the variable of the current theme.
 */

export const CODE_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/**
 * Time one line may take to tokenize before the rest of it is left plain. Shiki's default
 * (500 ms) also counts the JavaScript engine compiling the grammar's rules on their first use:
 * the first TypeScript or bash block after a cold start took 2 s, so the first page with code
 * showed it half uncoloured (light theme first, the dark pass then fast). Still a bound for a
 * pathological line.
 */
const TOKENIZE_TIME_LIMIT_MS = 5000;

let highlighter: Promise<Highlighter> | undefined;
// The JavaScript regex engine: no WebAssembly to fetch and instantiate (the Oniguruma build
// loads itself through fetch(), which the egress guard rightly refuses), quicker cold starts.
const instance = () => (highlighter ??= createHighlighter({ themes: Object.values(CODE_THEMES), langs: [], engine: createJavaScriptRegexEngine({ forgiving: true }) }));

/** The shiki language of a block's `syntax` (`js`, `TypeScript`, `shell`…), or undefined when shiki has none. */
export function codeLanguage(syntax: string | undefined): BundledLanguage | undefined {
  const name = syntax?.trim().toLowerCase();
  if (!name) return undefined;
  if (name in bundledLanguages) return name as BundledLanguage;
  return name in bundledLanguagesAlias ? (name as BundledLanguage) : undefined;
}

/** Highlights code blocks of one document: load their languages first, then highlight synchronously. */
export interface CodeHighlighter {
  /** `<pre class="shiki">` of the code, or undefined for a language shiki does not know (plain code then). */
  highlight(code: string, syntax: string | undefined): Element | undefined;
  /** CSS of the token classes used so far. */
  css(): string;
}

export async function codeHighlighter(syntaxes: Iterable<string>): Promise<CodeHighlighter> {
  const langs = [...new Set([...syntaxes].map(codeLanguage).filter((l): l is BundledLanguage => l !== undefined))];
  const shiki = await instance();
  const missing = langs.filter((l) => !shiki.getLoadedLanguages().includes(l));
  if (missing.length > 0) await shiki.loadLanguage(...missing);
  const classes: ShikiTransformerStyleToClass = transformerStyleToClass({ classPrefix: 'sk-' });
  return {
    highlight(code, syntax) {
      const lang = codeLanguage(syntax);
      // A language not loaded up front (a block prepareRender did not see) shows as plain code, never a failed page.
      if (!lang || !shiki.getLoadedLanguages().includes(lang)) return undefined;
      const root = shiki.codeToHast(code, { lang, themes: CODE_THEMES, defaultColor: false, transformers: [classes], tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS });
      const pre = root.children.find((n): n is Element => n.type === 'element' && n.tagName === 'pre');
      return pre;
    },
    css: () => classes.getCSS(),
  };
}
