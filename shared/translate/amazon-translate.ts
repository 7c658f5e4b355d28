/**
 * Amazon Translate (`TRANSLATION_PROVIDER=amazon-translate`): one TranslateText request per
 * segment (the API takes one text of at most 10,000 UTF-8 bytes; segments are cut under that,
 * shared/translate/segments.ts), at most REQUESTS_IN_FLIGHT at a time. TranslateText keeps
 * HTML tags, which carry the marks and placeholders. Throttling and 5xx answers are retried
 * by the SDK's standard retry strategy (exponential backoff with jitter) up to MAX_ATTEMPTS; so is
 * a request unanswered after REQUEST_TIMEOUT_MS. The run's deadline (`request.signal`) stops them all.
 * The endpoint comes from the SDK's standard variables (`AWS_ENDPOINT_URL_TRANSLATE`,
 * `AWS_ENDPOINT_URL`), the region and credentials from the usual AWS ones.
 * Amazon Translate takes no free-form guidance: a translation's `instructions` are not used.
 */
import type { TranslateClient } from '@aws-sdk/client-translate';
import { mapLimit } from '../map-limit.ts';
import { serviceClient } from '../aws/service-client.ts';
import type { TranslateRequest, Translator } from './translator.ts';

export const REQUESTS_IN_FLIGHT = 4;
export const MAX_ATTEMPTS = 8;
/** One TranslateText request (≤ 10,000 bytes) answers in about a second: a request still unanswered after this is retried. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** The service's language codes where they differ from the public interface's. */
const AWS_CODES: Record<string, string> = { 'pt-br': 'pt', 'zh-tw': 'zh-TW', yue: 'zh-TW' };
export const awsLanguage = (code: string) => AWS_CODES[code] ?? code;

export class AmazonTranslateTranslator implements Translator {
  readonly name = 'amazon-translate';
  private client: Promise<{ client: TranslateClient; command: typeof import('@aws-sdk/client-translate').TranslateTextCommand }> | undefined;

  // The SDK is loaded on first use: API functions that only enqueue runs never pay for it.
  private sdk() {
    this.client ??= import('@aws-sdk/client-translate').then(({ TranslateClient, TranslateTextCommand }) => ({
      client: serviceClient(TranslateClient, {
        maxAttempts: MAX_ATTEMPTS, retryMode: 'standard', requestHandler: { connectionTimeout: 5_000, requestTimeout: REQUEST_TIMEOUT_MS },
      }),
      command: TranslateTextCommand,
    }));
    return this.client;
  }

  async translate(segments: string[], request: TranslateRequest): Promise<string[]> {
    const { client, command } = await this.sdk();
    return mapLimit(segments, REQUESTS_IN_FLIGHT, async (text) => {
      if (text.trim() === '') return text;
      const out = await client.send(new command({
        Text: text, SourceLanguageCode: awsLanguage(request.from), TargetLanguageCode: awsLanguage(request.to),
      }), { abortSignal: request.signal });
      return out.TranslatedText ?? '';
    });
  }
}
