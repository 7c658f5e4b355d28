import type { TranslateRequest, Translator } from './translator.ts';

/** The local default: prefixes every non-blank segment with `[<target>] `; deterministic, no provider. */
export class PseudoTranslator implements Translator {
  readonly name = 'pseudo';
  async translate(segments: string[], request: TranslateRequest): Promise<string[]> {
    return segments.map((text) => (text.trim() === '' ? text : `[${request.to}] ${text}`));
  }
}
