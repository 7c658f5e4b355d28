/**
 * Machine translation behind one interface, chosen with `TRANSLATION_PROVIDER`
 * (shared/translate/providers.ts): `amazon-translate`, `bedrock`, or `pseudo` (the local
 * default: deterministic, prefixes each segment with `[<language>] `, so runs are
 * reproducible without a provider).
 *
 * A provider receives segments, not documents: HTML fragments whose tags stand for marks,
 * links and placeholders (shared/translate/markup.ts). It must return one fragment per input,
 * in order, keeping the tags; it owns its request limits, batching, retries and backoff.
 */
import type { StoredDocument } from '../content/types.ts';
import { translatorFromEnvironment } from './providers.ts';

export interface TranslateRequest {
  /** Language code of the source content (the translation's `source.language`). */
  from: string;
  /** Target language code. */
  to: string;
  /** The translation's `instructions` (rich document), for providers that take guidance. */
  instructions?: StoredDocument;
  /** Aborted when the run's time is up (TRANSLATION_RUN_TIMEOUT_MS): providers stop their requests and throw. */
  signal?: AbortSignal;
}

export interface Translator {
  /** Name recorded with the run's content hashes: changing provider translates everything again. */
  readonly name?: string;
  /** Translates a batch of segments (HTML fragments), returning one per input, in order. */
  translate(segments: string[], request: TranslateRequest): Promise<string[]>;
}

export { PseudoTranslator } from './pseudo.ts';

let current: Translator | undefined;

/** The translator runs use: the one set last, else the one `TRANSLATION_PROVIDER` names. */
export function defaultTranslator(): Translator {
  current ??= translatorFromEnvironment();
  return current;
}

/** Swaps the translator (a test double; undefined: back to the environment's); returns the previous one. */
export function setDefaultTranslator(translator: Translator | undefined): Translator {
  const previous = defaultTranslator();
  current = translator;
  return previous;
}
