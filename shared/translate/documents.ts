/**
 * Translating the parts of one page (title, description, document) or one reusable content
 * in ONE provider call: only segments with prose are sent (shared/translate/segments.ts);
 * the rest of the document is copied as it is.
 */
import type { StoredDocument } from '../content/types.ts';
import { fromSegment, toSegment, type InlineNode, type Segment } from './markup.ts';
import { segmentDocument } from './segments.ts';
import type { TranslateRequest, Translator } from './translator.ts';

export interface TranslatableParts {
  title?: string;
  description?: string;
  document?: StoredDocument;
}

export interface TranslatedParts extends TranslatableParts {
  /** Source words sent to the provider. */
  words: number;
  /** The segments sent (markup), in order. */
  sent: number;
}

const textSegment = (text: string) => toSegment([{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }]);
const plainText = (nodes: InlineNode[]): string => nodes
  .map((n) => (n.leaves ? n.leaves.map((l) => l.text).join('') : plainText(n.nodes ?? []))).join('');

export async function translateParts(parts: TranslatableParts, translator: Translator, request: TranslateRequest): Promise<TranslatedParts> {
  const title = parts.title !== undefined ? textSegment(parts.title) : undefined;
  const description = parts.description ? textSegment(parts.description) : undefined;
  const document = parts.document ? segmentDocument(parts.document) : undefined;
  const all: (Segment | undefined)[] = [title, description, ...(document?.segments ?? [])];
  const sendable = all.flatMap((s, i) => (s?.translatable ? [i] : []));
  const answers = sendable.length > 0 ? await translator.translate(sendable.map((i) => all[i]!.html), request) : [];
  if (answers.length !== sendable.length) throw new Error(`The translator returned ${answers.length} segments for ${sendable.length}`);
  const translations: (string | undefined)[] = all.map(() => undefined);
  sendable.forEach((index, i) => { translations[index] = answers[i]; });

  const textOf = (segment: Segment | undefined, index: number, source: string | undefined) =>
    segment && translations[index] !== undefined ? plainText(fromSegment(segment, translations[index]!)) : source;
  return {
    ...(parts.title !== undefined ? { title: textOf(title, 0, parts.title) } : {}),
    ...(parts.description !== undefined ? { description: textOf(description, 1, parts.description) } : {}),
    ...(document ? { document: document.rebuild(translations.slice(2)) } : {}),
    words: sendable.reduce((sum, i) => sum + all[i]!.words, 0),
    sent: sendable.length,
  };
}
