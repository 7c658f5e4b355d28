/**
 * Amazon Bedrock (`TRANSLATION_PROVIDER=bedrock`, model `BEDROCK_MODEL_ID`): segments go in
 * batches (a JSON array of at most BATCH_SEGMENTS segments and BATCH_CHARACTERS characters)
 * through the Converse API, with the translation's `instructions` in the system prompt, so
 * the model follows them (tone, terms to keep, ...). The answer must be a JSON array of as many
 * strings; a batch answered otherwise is split in halves and retried, down to one segment.
 * Throttling is retried by the SDK (exponential backoff) up to MAX_ATTEMPTS. Endpoint:
 * `AWS_ENDPOINT_URL_BEDROCK_RUNTIME` / `AWS_ENDPOINT_URL`, as the SDK reads them.
 */
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { mapLimit } from '../map-limit.ts';
import { serviceClient } from '../aws/service-client.ts';
import { documentText } from './instructions.ts';
import type { TranslateRequest, Translator } from './translator.ts';

export const DEFAULT_BEDROCK_MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
export const BATCH_SEGMENTS = 40;
export const BATCH_CHARACTERS = 6_000;
export const REQUESTS_IN_FLIGHT = 2;
export const MAX_ATTEMPTS = 8;
/** A batch of 6,000 characters takes the model some seconds: one still unanswered after this is retried. */
export const REQUEST_TIMEOUT_MS = 60_000;

type Sdk = { client: BedrockRuntimeClient; command: typeof import('@aws-sdk/client-bedrock-runtime').ConverseCommand };

export class BedrockTranslator implements Translator {
  readonly name: string;
  private sdk: Promise<Sdk> | undefined;

  private readonly modelId: string;

  constructor(modelId = process.env.BEDROCK_MODEL_ID || DEFAULT_BEDROCK_MODEL) {
    this.modelId = modelId;
    this.name = `bedrock:${modelId}`;
  }

  private load(): Promise<Sdk> {
    this.sdk ??= import('@aws-sdk/client-bedrock-runtime').then(({ BedrockRuntimeClient, ConverseCommand }) => ({
      client: serviceClient(BedrockRuntimeClient, {
        maxAttempts: MAX_ATTEMPTS, retryMode: 'standard',
        // The SDK's own HTTP/2 handler settings (one stream per session), with a request timeout.
        requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, disableConcurrentStreams: true },
      }),
      command: ConverseCommand,
    }));
    return this.sdk;
  }

  async translate(segments: string[], request: TranslateRequest): Promise<string[]> {
    const batches = batch(segments.map((text, index) => ({ text, index })).filter((s) => s.text.trim() !== ''));
    const out = [...segments];
    await mapLimit(batches, REQUESTS_IN_FLIGHT, async (items) => {
      const translated = await this.translateBatch(items.map((i) => i.text), request);
      items.forEach((item, i) => { out[item.index] = translated[i]!; });
    });
    return out;
  }

  private async translateBatch(texts: string[], request: TranslateRequest): Promise<string[]> {
    const answer = await this.converse(texts, request);
    if (answer) return answer;
    if (texts.length === 1) throw new Error(`Bedrock model ${this.modelId} did not answer a JSON array of one translation`);
    const half = Math.ceil(texts.length / 2);
    return [...await this.translateBatch(texts.slice(0, half), request), ...await this.translateBatch(texts.slice(half), request)];
  }

  private async converse(texts: string[], request: TranslateRequest): Promise<string[] | undefined> {
    const { client, command } = await this.load();
    const guidance = request.instructions ? documentText(request.instructions).trim() : '';
    const system = [
      `Translate each string of the JSON array the user sends from language "${request.from}" to language "${request.to}".`,
      'The strings are HTML fragments: keep every tag and attribute exactly as written, translate only the text between tags,',
      'and keep each <x ...></x> element where its meaning belongs. Answer with only a JSON array of the translated strings,',
      'in the same order and with the same number of items.',
      ...(guidance ? ['', 'Instructions from the documentation team:', guidance] : []),
    ].join('\n');
    const out = await client.send(new command({
      modelId: this.modelId,
      system: [{ text: system }],
      messages: [{ role: 'user', content: [{ text: JSON.stringify(texts) }] }],
      inferenceConfig: { temperature: 0 },
    }), { abortSignal: request.signal });
    const reply = (out.output?.message?.content ?? []).map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
    return parseArray(reply, texts.length);
  }
}

/** The JSON array of `length` strings in a model's reply (which may wrap it in prose or a code fence). */
export function parseArray(reply: string, length: number): string[] | undefined {
  const start = reply.indexOf('[');
  const end = reply.lastIndexOf(']');
  if (start < 0 || end < start) return undefined;
  try {
    const value: unknown = JSON.parse(reply.slice(start, end + 1));
    return Array.isArray(value) && value.length === length && value.every((v) => typeof v === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

function batch<T extends { text: string }>(items: T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= BATCH_SEGMENTS || size + item.text.length > BATCH_CHARACTERS)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
