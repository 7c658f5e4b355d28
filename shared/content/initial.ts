import { randomId } from '../ids.ts';
import { nowIso } from '../clock.ts';
import { putJsonBlob } from './blobs.ts';
import { emptyManifest, type Manifest, type StoredDocument } from './types.ts';

export const emptyDocument = (): StoredDocument => ({ object: 'document', data: { schemaVersion: 1 }, nodes: [] });

/** Content of a new space: one empty page, or nothing with `empty: true` (as the public interface). */
export async function initialManifest(empty: boolean): Promise<Manifest> {
  const manifest = emptyManifest();
  if (empty) return manifest;
  const now = nowIso();
  manifest.pages.push({
    id: randomId(),
    type: 'document',
    title: 'Untitled',
    slug: 'untitled',
    document: await putJsonBlob(emptyDocument()),
    createdAt: now,
    updatedAt: now,
    pages: [],
  });
  return manifest;
}
