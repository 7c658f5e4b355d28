import { evaluateCondition } from './conditions.ts';

/**
 * Adaptive content blocks (`{% if <condition> %}`, type `if`) as one visitor sees them: a
 * block whose condition holds for the visitor's context (visitorContext) is replaced by its
 * content, the others are dropped with everything in them. Every output of a page (HTML,
 * `.md`, llms-full.txt, PDF, the reader's search index) goes through this, so content hidden
 * from a visitor is in none of them. Anything not understood is hidden (evaluateCondition).
 */
type Block = { type?: string; data?: Record<string, unknown>; nodes?: Block[]; fragments?: Block[] };

/** `nodes` with each `if` block replaced by its content when `shows(expression)`, else dropped with everything in it. */
function resolveIfBlocks<T extends Block>(nodes: T[], shows: (expression: string) => boolean): T[] {
  return nodes.flatMap((node): T[] => {
    if (node.type === 'if') {
      const expression = typeof node.data?.expression === 'string' ? node.data.expression : '';
      return shows(expression) ? resolveIfBlocks((node.nodes ?? []) as T[], shows) : [];
    }
    if (!node.nodes && !node.fragments) return [node];
    const out = { ...node };
    if (node.nodes) out.nodes = resolveIfBlocks(node.nodes, shows);
    if (node.fragments) out.fragments = resolveIfBlocks(node.fragments, shows);
    return [out];
  });
}

export function shownNodes<T extends Block>(nodes: T[], context: Record<string, unknown>): T[] {
  return resolveIfBlocks(nodes, (expression) => evaluateCondition(expression, context));
}

/** A document with its adaptive blocks resolved for one visitor. */
export function shownDocument<D extends { nodes: unknown[] }>(document: D, context: Record<string, unknown>): D {
  return { ...document, nodes: shownNodes(document.nodes as Block[], context) };
}

/** A document without any adaptive block: what every visitor sees, whatever their claims. */
export function withoutAdaptiveBlocks<D extends { nodes: unknown[] }>(document: D): D {
  return { ...document, nodes: resolveIfBlocks(document.nodes as Block[], () => false) };
}

/** The site's customization as one visitor sees it: header links whose condition fails are left out. */
export function shownCustomization<C extends { header: { links: { condition?: string }[] } }>(customization: C, context: Record<string, unknown>): C {
  const links = customization.header.links.filter((l) => !l.condition || evaluateCondition(l.condition, context));
  return { ...customization, header: { ...customization.header, links } };
}
