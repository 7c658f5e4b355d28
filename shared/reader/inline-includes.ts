/**
 * Reusable contents where a page includes them. The rendered page shows their blocks there;
 * the reader's markdown exports (`<page>.md`, llms-full.txt) print them there (an
 * `{% include %}` tag would name a repository path that means nothing beside these files, and
 * its text would be missing) and search indexes them as the page's text.
 */
import { getJsonBlob } from '../content/blobs.ts';
import type { Manifest, StoredDocument } from '../content/types.ts';
import { anchorOf } from './html.ts';

/** How deep includes inside included contents are followed (rendering, exports, search). */
export const MAX_INCLUDE_DEPTH = 3;

/** The reusable content a `reusable-content` block names: by id, else by its path's name or title. */
export function includeId(manifest: Manifest, data: Record<string, unknown> | undefined): string | undefined {
  const ref = data?.ref as { reusableContent?: string } | undefined;
  if (ref?.reusableContent && manifest.reusableContents.some((r) => r.id === ref.reusableContent)) return ref.reusableContent;
  const path = String(data?.path ?? '').split('/').pop()?.replace(/\.md$/, '') ?? '';
  return manifest.reusableContents.find((r) => r.id === path || anchorOf(r.title) === anchorOf(path))?.id;
}

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: Node[] };

/** `document` with every include (in fragments too) replaced by the included blocks, nested ones to MAX_INCLUDE_DEPTH. */
export async function inlineIncludes(document: StoredDocument, manifest: Manifest): Promise<StoredDocument> {
  const expand = async (nodes: Node[], depth: number): Promise<Node[]> => {
    const out: Node[] = [];
    for (const node of nodes) {
      if (node.type === 'reusable-content') {
        const id = depth < MAX_INCLUDE_DEPTH ? includeId(manifest, node.data) : undefined;
        const content = id ? manifest.reusableContents.find((r) => r.id === id) : undefined;
        // An include that names nothing (or nests too deep) prints nothing, as it renders nothing.
        if (content) out.push(...await expand((await getJsonBlob<StoredDocument>(content.document)).nodes as Node[], depth + 1));
        continue;
      }
      // Fragments hold blocks too (an expandable's body): includes there are shown, so printed and looked into.
      const expanded: Node = { ...node };
      if (node.nodes) expanded.nodes = await expand(node.nodes, depth);
      if (node.fragments) expanded.fragments = await expand(node.fragments, depth);
      out.push(expanded);
    }
    return out;
  };
  return { ...document, nodes: await expand(document.nodes as Node[], 0) as StoredDocument['nodes'] };
}
