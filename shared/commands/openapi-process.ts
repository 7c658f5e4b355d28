import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { parse as parseYaml } from 'yaml';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { openAPISpecEntity, type OpenAPIProcessErrorCode } from '../db/entities/openapi-spec.ts';
import { getBytesBlob, putJsonBlob } from '../content/blobs.ts';
import { MAX_PROCESS_ERRORS } from '../presenters/openapi-spec.ts';
import { readOpenAPISpec } from './openapi-write.ts';

/** Limits of fetching a spec from its URL (an object so tests can lower them). */
export const openAPIFetchLimits = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 };

class ProcessError extends Error {
  constructor(readonly code: OpenAPIProcessErrorCode, message: string, readonly errors: { message: string; code?: string }[] = []) {
    super(message);
  }
}

/** Fetches the source URL: http(s) only, a timeout, a size cap (read as a stream). */
async function fetchSource(url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProcessError('FETCH_ERROR', `Invalid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ProcessError('FETCH_ERROR', `Unsupported URL scheme ${parsed.protocol}`);
  const { timeoutMs, maxBytes } = openAPIFetchLimits;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(parsed, { signal, redirect: 'follow', headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
    if (!res.ok) throw new ProcessError('FETCH_ERROR', `Fetching the spec answered HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) throw new ProcessError('FETCH_ERROR', `The spec is larger than ${maxBytes} bytes`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) throw new ProcessError('FETCH_ERROR', `The spec is larger than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof ProcessError) throw error;
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError' || signal.aborted) {
      throw new ProcessError('FETCH_TIMEOUT', `Fetching the spec took longer than ${timeoutMs / 1000} s`);
    }
    throw new ProcessError('FETCH_ERROR', `Fetching the spec failed: ${String((error as Error)?.cause ?? (error as Error)?.message ?? error)}`);
  }
}

/** Parses JSON or YAML and checks the shape of an OpenAPI 3.x / Swagger 2.0 document. */
export function parseOpenAPIDocument(text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new ProcessError('PARSE_ERROR', 'The spec is neither valid JSON nor valid YAML', [{ message: String((error as Error).message).slice(0, 500), code: 'SYNTAX' }]);
  }
  const errors: { message: string; code: string }[] = [];
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ProcessError('PARSE_ERROR', 'The spec is not an object', [{ message: 'The document must be an object', code: 'NOT_AN_OBJECT' }]);
  }
  const d = doc as Record<string, unknown>;
  const openapi = d.openapi;
  const swagger = d.swagger;
  if (typeof openapi === 'string') {
    if (!/^3\.\d+(\.\d+)?/.test(openapi)) errors.push({ message: `Unsupported openapi version ${openapi}`, code: 'VERSION' });
  } else if (swagger !== undefined) {
    if (String(swagger) !== '2.0') errors.push({ message: `Unsupported swagger version ${String(swagger)}`, code: 'VERSION' });
  } else {
    errors.push({ message: 'Missing "openapi" (3.x) or "swagger" (2.0) field', code: 'VERSION' });
  }
  const info = d.info as Record<string, unknown> | undefined;
  if (!info || typeof info !== 'object' || typeof info.title !== 'string' || info.title === '') {
    errors.push({ message: 'Missing "info.title"', code: 'INFO' });
  }
  const isV31 = typeof openapi === 'string' && openapi.startsWith('3.1');
  const hasPaths = d.paths !== undefined && typeof d.paths === 'object' && d.paths !== null && !Array.isArray(d.paths);
  if (!hasPaths && !(isV31 && (d.webhooks !== undefined || d.components !== undefined))) {
    errors.push({ message: 'Missing "paths" object', code: 'PATHS' });
  }
  if (errors.length > 0) throw new ProcessError('PARSE_ERROR', 'The document is not an OpenAPI 3.x or Swagger 2.0 specification', errors);
  return d;
}

/**
 * Processing run `processId` of a spec (the `openapi-process` job on the `jobs` queue):
 * `progress`, then the source (fetched or inline) parsed and validated, the document stored
 * as a content-addressed JSON blob and a new `lastVersion`; on failure the error code and
 * errors are kept with the previous version. Every write is conditional on `processId`: a
 * run superseded by a later PUT (or a deleted spec) writes nothing. Source failures end the
 * run (state `complete` with the error); only storage errors throw, for SQS to retry.
 */
export async function processOpenAPISpec(orgId: string, slug: string, processId: string): Promise<void> {
  const spec = await readOpenAPISpec(orgId, slug, true);
  if (!spec || spec.processId !== processId) return;
  if (!(await update(orgId, slug, processId, 'SET processingState = :progress', { ':progress': 'progress' }))) return;
  const now = nowIso();
  try {
    const text = spec.sourceURL !== undefined
      ? await fetchSource(spec.sourceURL)
      : new TextDecoder().decode(await getBytesBlob(spec.sourceTextBlob!));
    const document = parseOpenAPIDocument(text);
    const blob = await putJsonBlob(document);
    await update(orgId, slug, processId,
      'SET processingState = :complete, lastVersion = :version, lastVersionBlob = :blob, lastProcessedAt = :now, lastProcessedErrors = :none, lastProcessedErrorCount = :zero REMOVE lastProcessErrorCode',
      { ':complete': 'complete', ':version': randomId(), ':blob': blob, ':now': now, ':none': [], ':zero': 0 });
  } catch (error) {
    if (!(error instanceof ProcessError)) throw error;
    const errors = error.errors.length > 0 ? error.errors : [{ message: error.message, code: error.code }];
    await update(orgId, slug, processId,
      'SET processingState = :complete, lastProcessedAt = :now, lastProcessErrorCode = :code, lastProcessedErrors = :errors, lastProcessedErrorCount = :count',
      { ':complete': 'complete', ':now': now, ':code': error.code, ':errors': errors.slice(0, MAX_PROCESS_ERRORS), ':count': errors.length });
  }
}

async function update(orgId: string, slug: string, processId: string, expression: string, values: Record<string, unknown>): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: openAPISpecEntity.key({ orgId, slug }),
      UpdateExpression: expression,
      ConditionExpression: 'processId = :pid',
      ExpressionAttributeValues: { ...values, ':pid': processId },
    }));
    return true;
  } catch (error) {
    if ((error as Error)?.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
