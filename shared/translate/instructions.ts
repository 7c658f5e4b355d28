/** The plain text of a rich document (a translation's `instructions`), one line per block. */
export function documentText(document: { nodes?: unknown[] }): string {
  const lines: string[] = [];
  const visit = (node: unknown): string => {
    if (typeof node !== 'object' || node === null) return '';
    const n = node as { object?: string; leaves?: { text?: string }[]; nodes?: unknown[] };
    if (Array.isArray(n.leaves)) return n.leaves.map((l) => l.text ?? '').join('');
    const children = n.nodes ?? [];
    if (n.object === 'block' && children.some((c) => (c as { object?: string }).object === 'block')) {
      for (const child of children) {
        const text = visit(child);
        if (text.trim()) lines.push(text);
      }
      return '';
    }
    return children.map(visit).join('');
  };
  for (const node of document.nodes ?? []) {
    const text = visit(node);
    if (text.trim()) lines.push(text);
  }
  return lines.join('\n');
}
