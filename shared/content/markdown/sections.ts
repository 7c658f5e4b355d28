/**
 * Search sections: one per heading (at any depth, e.g. inside steps), holding the
 * heading path and the plain text up to the next heading. Text before the first
 * heading forms a leading section with an empty id and title.
 */
import { plainText } from './inline.ts';
import { blockText } from './text.ts';
import { isElement, type ElementNode, type JSONDocument } from './types.ts';

export interface Section {
  id: string;
  title: string;
  headings: string[];
  body: string;
}

/** Anchor slug as GitBook makes them: lowercase words joined by dashes, unique per page. */
export function slugify(text: string, taken: Map<string, number>): string {
  const base = text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
  const count = taken.get(base) ?? 0;
  taken.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

function headingLevel(node: ElementNode): number | undefined {
  const match = /^heading-([1-6])$/.exec(node.type);
  return match ? Number(match[1]) : undefined;
}

function containsHeading(node: ElementNode): boolean {
  return node.nodes.filter(isElement).some((child) => headingLevel(child) !== undefined || containsHeading(child));
}

export function documentSections(document: JSONDocument): Section[] {
  const taken = new Map<string, number>();
  const sections: { id: string; title: string; headings: string[]; body: string[] }[] = [];
  let current = { id: '', title: '', headings: [] as string[], body: [] as string[] };
  const path: { level: number; title: string }[] = [];

  const visit = (node: ElementNode) => {
    const level = headingLevel(node);
    if (level !== undefined) {
      sections.push(current);
      const title = plainText(node.nodes).trim();
      while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop();
      path.push({ level, title });
      const id = typeof node.data?.id === 'string' && node.data.id ? node.data.id : slugify(title, taken);
      current = { id, title, headings: path.map((p) => p.title), body: [] };
      return;
    }
    if (!containsHeading(node)) {
      const text = blockText(node).trim();
      if (text) current.body.push(text);
      return;
    }
    if (node.type === 'tabs-item' && typeof node.data?.title === 'string' && node.data.title) current.body.push(node.data.title);
    node.nodes.filter(isElement).forEach(visit);
  };
  document.nodes.filter(isElement).forEach(visit);
  sections.push(current);

  return sections
    .filter((s, i) => i > 0 || s.body.length > 0)
    .map((s) => ({ id: s.id, title: s.title, headings: s.headings, body: s.body.join('\n') }));
}
