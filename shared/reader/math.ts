import { randomBytes } from 'node:crypto';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { sanitizeMathml } from './sanitize.ts';

/**
 * Math blocks and inlines (`math`, `inline-math`, `data.formula` in TeX) as MathML, rendered
 * on the server by KaTeX (`output: 'mathml'`: browsers draw MathML Core themselves, no KaTeX
 * CSS or fonts). KaTeX's output is sanitized on its own (schema.ts MATHML_SCHEMA), because
 * the page's sanitizer strips `<math>` from author HTML. The document holds a placeholder
 * whose id carries a random per-render nonce (author HTML cannot forge it); the layout puts
 * the MathML in its place after sanitizing the page (`fillMathSlots`). Invalid or oversized
 * TeX shows as its source in `<code class="math-error">`.
 */

/** Longest formula rendered; longer ones show as code (KaTeX's macro expansion stays at its default 1,000). */
export const MAX_FORMULA_CHARS = 10_000;

type Katex = typeof import('katex').default;
let katexLoad: Promise<Katex> | undefined;
/** KaTeX is loaded only for pages that have math. */
export const loadKatex = () => (katexLoad ??= import('katex').then((m) => m.default));

export interface MathSlots {
  katex: Katex;
  nonce: string;
  /** MathML by placeholder id. */
  slots: Map<string, ElementContent>;
}

export const newMathSlots = (katex: Katex): MathSlots => ({ katex, nonce: randomBytes(12).toString('hex'), slots: new Map() });

/** A formula as a placeholder for its MathML, or its source as code when KaTeX refuses it. */
export function renderMath(math: MathSlots | undefined, formula: unknown, display: boolean): ElementContent {
  const tex = typeof formula === 'string' ? formula : '';
  const source = h('code.math-error', tex);
  if (!math || tex.trim() === '' || tex.length > MAX_FORMULA_CHARS) return display ? h('div.math-block', source) : source;
  let element: ElementContent | undefined;
  try {
    element = sanitizeMathml(math.katex.renderToString(tex, { output: 'mathml', displayMode: display, throwOnError: true, trust: false, strict: 'ignore', maxSize: 20 }));
  } catch {
    element = undefined;
  }
  if (!element) return display ? h('div.math-block', source) : source;
  const id = `math-${math.nonce}-${math.slots.size}`;
  math.slots.set(id, element);
  const slot = h('span', { id });
  return display ? h('div.math-block', slot) : slot;
}

/** Replaces the placeholders of a sanitized tree with their MathML (in place). */
export function fillMathSlots(nodes: ElementContent[], slots: Map<string, ElementContent> | undefined): ElementContent[] {
  if (!slots || slots.size === 0) return nodes;
  const visit = (list: ElementContent[]) => {
    for (const [i, node] of list.entries()) {
      if (node.type !== 'element') continue;
      const math = typeof node.properties.id === 'string' ? slots.get(node.properties.id) : undefined;
      if (math) list[i] = math;
      else visit(node.children as ElementContent[]);
    }
  };
  visit(nodes);
  return nodes;
}
