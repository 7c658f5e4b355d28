/**
 * Runtime configuration, read from the environment on every access so the local
 * server can set variables after start-up (emulator ports are only known then).
 */
export type QueueName = 'git' | 'translations' | 'integration-events' | 'jobs' | 'images';
export const queueNames: readonly QueueName[] = ['git', 'translations', 'integration-events', 'jobs', 'images'];

/** Environment variable that holds a queue's URL, e.g. QUEUE_URL_INTEGRATION_EVENTS. */
export function queueUrlVariable(name: QueueName): string {
  return `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`;
}

export const config = {
  get region(): string {
    return process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  },
  get tableName(): string {
    return process.env.TABLE_NAME ?? 'docs-service';
  },
  get bucketName(): string {
    return process.env.BUCKET_NAME ?? 'docs-service-content';
  },
  /** Public base URL of the API (without /v1), used to build `urls.location`. */
  get apiUrl(): string {
    return (process.env.PUBLIC_API_URL ?? 'http://localhost:8080').replace(/\/$/, '');
  },
  /** Base URL of the web app, used to build `urls.app`. */
  get appUrl(): string {
    return (process.env.PUBLIC_APP_URL ?? 'https://app.docs.localhost').replace(/\/$/, '');
  },
  /** Domain under which organizations' published content lives (<org>.<domain>). */
  get publishedDomain(): string {
    return process.env.PUBLISHED_DOMAIN ?? 'docs.localhost';
  },
  /** Requests per minute allowed to one access token (shared/http/rate-limit.ts). */
  get rateLimitPerMinute(): number {
    return positiveInteger(process.env.RATE_LIMIT_PER_MINUTE, 600);
  },
  /** Requests per minute allowed to one client address: reader requests, and API requests without a valid token. */
  get readerRateLimitPerMinute(): number {
    return positiveInteger(process.env.READER_RATE_LIMIT_PER_MINUTE, 300);
  },
  /**
   * How long an instance keeps what authentication reads (shared/http/auth-cache.ts): a
   * revocation or role change made on another instance applies here after this at most.
   * AUTH_CACHE_SECONDS, default 5; 0 turns the cache off.
   */
  get authCacheMs(): number {
    const value = process.env.AUTH_CACHE_SECONDS;
    return (value === '0' ? 0 : positiveInteger(value, 5)) * 1000;
  },
  /**
   * Time one translation run attempt may spend translating (shared/commands/translations/run.ts):
   * TRANSLATION_RUN_TIMEOUT_MS, default 100 s, under the translations worker's 2-minute timeout.
   */
  get translationRunTimeoutMs(): number {
    return positiveInteger(process.env.TRANSLATION_RUN_TIMEOUT_MS, 100_000);
  },
  queueUrl(name: QueueName): string | undefined {
    return process.env[queueUrlVariable(name)];
  },
};

/** A positive integer variable; unset or anything else keeps the default. */
function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isSafeInteger(n) && n > 0 ? n : fallback;
}
