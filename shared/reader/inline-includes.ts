/**
 * The reader's markdown exports (`<page>.md`, llms-full.txt) print a reusable content's blocks
 * where the page includes it, as the page shows it: an `{% include %}` tag would name a
 * repository path that means nothing beside these files, and its text would be missing.
 * Nested includes are followed as far as the rendered page follows them (MAX_INCLUDE_DEPTH).
 */
import { getJsonBlob } from '../content/blobs.ts';
import type { Manifest, StoredDocument } from '../content/types.ts';
import { includeId, MAX_INCLUDE_DEPTH } from './document.ts';

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[] };

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
      out.push(node.nodes ? { ...node, nodes: await expand(node.nodes, depth) } : node);
    }
    return out;
  };
  return { ...document, nodes: await expand(document.nodes as Node[], 0) as StoredDocument['nodes'] };
}
