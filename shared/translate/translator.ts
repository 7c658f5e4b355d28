/**
 * Machine translation behind one interface. The service has no translation provider: the
 * default `PseudoTranslator` is deterministic and marks each text for the target language
 * (`[fr] Hello`), which keeps runs reproducible and testable. A real provider (DeepL, an LLM,
 * ...) plugs in by implementing `Translator` and being returned from `defaultTranslator`
 * (or passed to `runTranslation`); nothing else changes.
 */
import type { StoredDocument } from '../content/types.ts';

export interface TranslateRequest {
  /** Language code of the source content (the translation's `source.language`). */
  from: string;
  /** Target language code. */
  to: string;
  /** The translation's `instructions` (rich document), for providers that take guidance. */
  instructions?: StoredDocument;
}

export interface Translator {
  /**
   * Translates a batch of text fragments (the text leaves of one document, or page titles),
   * returning one translation per input, in order. Fragments may be empty or whitespace.
   */
  translate(texts: string[], request: TranslateRequest): Promise<string[]>;
}

/** Prefixes every non-blank fragment with `[<target>] `; deterministic and idempotent per input. */
export class PseudoTranslator implements Translator {
  async translate(texts: string[], request: TranslateRequest): Promise<string[]> {
    return texts.map((text) => (text.trim() === '' ? text : `[${request.to}] ${text}`));
  }
}

let current: Translator = new PseudoTranslator();

/** The translator runs use. */
export function defaultTranslator(): Translator {
  return current;
}

/** Swaps the translator (a real provider at start-up, or a test double); returns the previous one. */
export function setDefaultTranslator(translator: Translator): Translator {
  const previous = current;
  current = translator;
  return previous;
}
