/**
 * The translator `TRANSLATION_PROVIDER` names: `pseudo` (default), `amazon-translate` or
 * `bedrock`. Anything else is a configuration error, reported when the first run starts.
 */
import { AmazonTranslateTranslator } from './amazon-translate.ts';
import { BedrockTranslator } from './bedrock.ts';
import { PseudoTranslator } from './pseudo.ts';
import type { Translator } from './translator.ts';

export const translationProviders = ['pseudo', 'amazon-translate', 'bedrock'] as const;

export function translatorFromEnvironment(name = process.env.TRANSLATION_PROVIDER || 'pseudo'): Translator {
  switch (name) {
    case 'pseudo': return new PseudoTranslator();
    case 'amazon-translate': return new AmazonTranslateTranslator();
    case 'bedrock': return new BedrockTranslator();
    default: throw new Error(`TRANSLATION_PROVIDER must be one of ${translationProviders.join(', ')}, not "${name}"`);
  }
}
