import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';

/**
 * Regions of a page that scroll sideways (code and authors' raw `<pre>`, display math, tables)
 * are reachable by keyboard: focusable (`tabindex="0"`, axe's `scrollable-region-focusable`),
 * so arrow keys scroll them. Tables, which can be many on a page, are also named regions
 * (their caption, else their header cells) so a screen reader says what the stop is. A raw
 * HTML table outside the reader's wrapper gets one, so it scrolls instead of widening the page.
 *
 * Without widths on the server every such region is a stop; the reader's script
 * (assets/script.ts) removes the stop from those that fit and restores it when they overflow.
 *
 * Applied to the page body after it is sanitized: READER_SCHEMA gives authors no `tabindex`
 * (one that reorders the page) and no `region` role, so only the reader sets them.
 */

const MAX_LABEL_CHARS = 80;

function text(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(text).join('') : '';
}

const isElement = (node: ElementContent, tag: string, className?: string): boolean =>
  node.type === 'element' && node.tagName === tag && (!className || ((node.properties.className as string[] | undefined) ?? []).includes(className));

/** What names a table: its caption, else its header cells' text. */
function tableLabel(table: Element): string {
  const caption = table.children.find((c) => isElement(c, 'caption'));
  if (caption) return text(caption).replace(/\s+/g, ' ').trim();
  const head = table.children.find((c) => isElement(c, 'thead')) as Element | undefined;
  const row = head?.children.find((c) => isElement(c, 'tr')) as Element | undefined;
  const cells = (row?.children ?? []).map((c) => text(c).replace(/\s+/g, ' ').trim()).filter(Boolean);
  return cells.length > 0 ? `Table: ${cells.join(', ')}` : '';
}

export function focusableScrollRegions(nodes: ElementContent[]): ElementContent[] {
  const labels = new Map<string, number>();
  /** Labels stay unique on the page (regions are landmarks: two alike could not be told apart). */
  const unique = (label: string) => {
    const base = (label || 'Table').slice(0, MAX_LABEL_CHARS);
    const seen = (labels.get(base) ?? 0) + 1;
    labels.set(base, seen);
    return seen === 1 ? base : `${base} (${seen})`;
  };
  const region = (wrapper: Element, table: Element | undefined) => {
    Object.assign(wrapper.properties, { tabIndex: 0, role: 'region', ariaLabel: unique(table ? tableLabel(table) : '') });
  };
  const wrapped = new Set<Element>();
  const visit = (list: ElementContent[]) => {
    for (const [i, node] of list.entries()) {
      if (node.type !== 'element') continue;
      if (node.tagName === 'pre' || isElement(node, 'div', 'math-block')) node.properties.tabIndex = 0;
      if (isElement(node, 'div', 'table')) {
        const table = node.children.find((c) => isElement(c, 'table')) as Element | undefined;
        if (table) wrapped.add(table);
        region(node, table);
      } else if (node.tagName === 'table' && !wrapped.has(node)) {
        const wrapper = h('div.table', [node]);
        region(wrapper, node);
        list[i] = wrapper;
      }
      visit(node.children);
    }
  };
  visit(nodes);
  return nodes;
}
