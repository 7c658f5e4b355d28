/**
 * Translating a revision's manifest incrementally. Each page (title, description, document
 * blob) and each reusable content has a content hash that also covers the languages, the
 * instructions and the provider; a part whose hash equals the one recorded by the previous
 * run is copied from the previous result instead of being sent again. The run reports what
 * it really sent: words, pages, segments.
 */
import { createHash } from 'node:crypto';
import { contentHashOf, getJsonBlob, putJsonBlob } from '../content/blobs.ts';
import type { Manifest, ManifestPage, ManifestReusableContent, StoredDocument } from '../content/types.ts';
import { mapLimit } from '../map-limit.ts';
import { translateParts } from './documents.ts';
import type { TranslateRequest, Translator } from './translator.ts';

/** Pages translated at the same time (each one provider call, the provider limiting its own requests). */
export const PAGES_IN_FLIGHT = 4;

export interface PreviousRun {
  /** The manifest the previous run produced (the result revision), when it is still readable. */
  manifest?: Manifest;
  /** Part id (`page:<id>`, `reusable:<id>`) -> hash of its source at the previous run. */
  hashes: Record<string, string>;
}

export interface ManifestTranslation {
  manifest: Manifest;
  hashes: Record<string, string>;
  /** Source document pages whose content was sent this run. */
  pagesSent: string[];
  words: number;
  segments: number;
}

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

export async function translateManifest(
  source: Manifest, translator: Translator, request: TranslateRequest, previous: PreviousRun = { hashes: {} },
): Promise<ManifestTranslation> {
  const settings = hash([request.from, request.to, request.instructions ?? null, translator.name ?? 'custom']);
  const previousPages = new Map<string, ManifestPage>();
  const index = (pages: ManifestPage[]) => pages.forEach((p) => { previousPages.set(p.id, p); index(p.pages ?? []); });
  index(previous.manifest?.pages ?? []);
  const previousContents = new Map((previous.manifest?.reusableContents ?? []).map((c) => [c.id, c]));

  const hashes: Record<string, string> = {};
  const pagesSent: string[] = [];
  let words = 0;
  let segments = 0;

  const flat: ManifestPage[] = [];
  const collect = (pages: ManifestPage[]) => pages.forEach((p) => { flat.push(p); collect(p.pages ?? []); });
  collect(source.pages);
  const translatedPages = new Map<string, Pick<ManifestPage, 'title' | 'description' | 'document'>>();
  await mapLimit(flat, PAGES_IN_FLIGHT, async (page) => {
    const id = `page:${page.id}`;
    hashes[id] = hash([settings, page.title, page.description ?? null, page.document ? contentHashOf(page.document) : null]);
    const before = previousPages.get(page.id);
    if (before && previous.hashes[id] === hashes[id]) {
      translatedPages.set(page.id, { title: before.title, description: before.description, document: before.document });
      return;
    }
    const document = page.document ? await getJsonBlob<StoredDocument>(page.document) : undefined;
    const result = await translateParts({ title: page.title, description: page.description, document }, translator, request);
    words += result.words;
    segments += result.sent;
    if (page.type === 'document' && result.sent > 0) pagesSent.push(page.id);
    translatedPages.set(page.id, {
      title: result.title ?? page.title,
      ...(result.description !== undefined ? { description: result.description } : {}),
      ...(result.document ? { document: await putJsonBlob(result.document) } : {}),
    });
  });
  const rebuild = (pages: ManifestPage[]): ManifestPage[] => pages.map((page) => {
    const translated = translatedPages.get(page.id)!;
    const copy: ManifestPage = { ...page, title: translated.title, pages: rebuild(page.pages ?? []) };
    if (translated.description !== undefined) copy.description = translated.description;
    if (translated.document !== undefined) copy.document = translated.document;
    return copy;
  });

  const reusableContents = await mapLimit(source.reusableContents, PAGES_IN_FLIGHT, async (content): Promise<ManifestReusableContent> => {
    const id = `reusable:${content.id}`;
    hashes[id] = hash([settings, contentHashOf(content.document)]);
    const before = previousContents.get(content.id);
    if (before && previous.hashes[id] === hashes[id]) return { ...content, document: before.document };
    const result = await translateParts({ document: await getJsonBlob<StoredDocument>(content.document) }, translator, request);
    words += result.words;
    segments += result.sent;
    return { ...content, document: await putJsonBlob(result.document!) };
  });

  return { manifest: { ...source, pages: rebuild(source.pages), reusableContents }, hashes, pagesSent: pagesSent.sort(), words, segments };
}
