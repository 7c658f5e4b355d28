import { isScalar, parseDocument, type YAMLError } from 'yaml';
import { ConditionFailed } from '../../db/errors.ts';
import { nowIso } from '../../clock.ts';
import type { Update } from '../../db/entity.ts';
import { openAPISpecVersionEntity, type OpenAPISpecVersionItem } from '../../db/entities/openapi-spec-version.ts';
import { openAPISpecEntity, type OpenAPIProcessErrorCode, type OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import { egressFetch, type EgressLimits } from '../../net/egress.ts';
import { isEgressError } from '../../net/egress-error.ts';
import { openCredentials, withCredentials, withoutCredentials } from '../../net/url-credentials.ts';
import { getBytesBlob, putBytesBlob, putJsonBlob } from '../../content/blobs.ts';
import { MAX_PROCESS_ERRORS } from '../../presenters/openapi-spec.ts';
import { credentialsRecordId } from './source.ts';
import { readOpenAPISpec } from './store.ts';
import { run, transact, type Write } from '../../db/writes.ts';
import { newOpenAPIVersionId, trimOpenAPIVersions } from './versions.ts';
import { logger } from '../../observability/logger.ts';

/** Caps of fetching a spec from its URL (an object so tests can lower them). */
export const openAPIFetchLimits: EgressLimits = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, connectTimeoutMs: 5_000, maxRedirects: 5 };

/** A failure of the spec's source (fetch, syntax, shape): recorded on the spec, or said on a page showing a spec file. */
export class ProcessError extends Error {
  readonly code: OpenAPIProcessErrorCode;
  readonly errors: { message: string; code?: string }[];

  constructor(code: OpenAPIProcessErrorCode, message: string, errors: { message: string; code?: string }[] = []) {
    super(message);
    this.code = code;
    this.errors = errors;
  }
}

/**
 * Fetches the source URL through the egress guard (with its sealed credentials, if any).
 * Failures name the field, the host and a status or error code, never the fetched body.
 */
async function fetchSource(spec: OpenAPISpecItem): Promise<string> {
  const credentials = spec.sourceCredentials !== undefined
    ? await openCredentials(spec.sourceCredentials, credentialsRecordId(spec.orgId, spec.slug))
    : undefined;
  try {
    const res = await egressFetch({
      url: withCredentials(spec.sourceURL!, credentials), label: 'source.url', ...openAPIFetchLimits,
      headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
    });
    if (res.status < 200 || res.status > 299) {
      res.cancel();
      throw new ProcessError('FETCH_ERROR', `source.url: fetching the spec answered HTTP ${res.status}`);
    }
    return await res.text();
  } catch (error) {
    if (!isEgressError(error)) throw error;
    throw new ProcessError(error.failure === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', error.message);
  }
}

/** Nesting deeper than this is refused: storing and rendering a document walk it recursively. */
export const MAX_SPEC_DEPTH = 128;
/** Aliases a YAML document may resolve (yaml's guard against billion-laughs expansions). */
const MAX_YAML_ALIASES = 100;

/** Whether a spec's text is read as JSON (it starts with `{`, after any byte order mark and blanks) rather than YAML. */
export const isJsonText = (text: string): boolean => text.replace(/^\uFEFF/, '').trimStart().startsWith('{');

/** JSON (text starting with `{`, after any byte order mark) or YAML; errors name a position, never quote the text. */
function parseText(source: string): unknown {
  const text = source.replace(/^\uFEFF/, '');
  const json = isJsonText(text);
  if (json) {
    try {
      return JSON.parse(text);
    } catch { /* located by the YAML parser below (JSON.parse's message quotes the text) */ }
  }
  const doc = parseDocument(text);
  const error = doc.errors[0] as YAMLError | undefined;
  if (error?.code === 'RESOURCE_EXHAUSTION') throw tooDeep();
  if (error || json) {
    const where = error?.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
    throw new ProcessError('PARSE_ERROR', 'The spec is neither valid JSON nor valid YAML', [
      { message: `Invalid ${json ? 'JSON' : 'YAML'} syntax${where}${error ? ` (${error.code})` : ''}`, code: 'SYNTAX' },
    ]);
  }
  try {
    const value: unknown = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    // `swagger: 2.0` and `openapi: 3.1` unquoted are YAML numbers (2, 3.1): read as written.
    for (const key of ['openapi', 'swagger']) {
      const node = doc.get(key, true);
      if (isScalar(node) && typeof node.value === 'number' && node.source) (value as Record<string, unknown>)[key] = node.source;
    }
    return value;
  } catch (cause) {
    if (!(cause instanceof ReferenceError)) throw cause;
    // yaml's alias-expansion guard (ReferenceError), or an alias to an anchor that is not defined.
    throw new ProcessError('PARSE_ERROR', 'The spec is not valid YAML', [{
      message: `YAML aliases (*name) expand to more than ${MAX_YAML_ALIASES} copies of their anchors, or name an anchor that is not defined; expand them in the document`,
      code: 'ALIASES',
    }]);
  }
}

const tooDeep = () => new ProcessError('PARSE_ERROR', 'The spec nests too deeply', [
  { message: `The document nests objects and arrays more than ${MAX_SPEC_DEPTH} levels deep`, code: 'DEPTH' },
]);

/** Whether a parsed value nests deeper than `max` objects or arrays (walked without recursion). */
function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses JSON or YAML and checks the shape of an OpenAPI 3.x / Swagger 2.0 document. */
export function parseOpenAPIDocument(text: string): Record<string, unknown> {
  // A sign-in or error page served at the spec's URL: say so rather than point at a line of it.
  if (/^\s*</.test(text.replace(/^\uFEFF/, ''))) {
    throw new ProcessError('PARSE_ERROR', 'The spec is not JSON or YAML', [
      { message: 'The document is HTML or XML, not an OpenAPI document in JSON or YAML (is the URL a web page rather than the spec file?)', code: 'NOT_AN_OBJECT' },
    ]);
  }
  const doc = parseText(text);
  if (nestsDeeper(doc, MAX_SPEC_DEPTH)) throw tooDeep();
  const errors: { message: string; code: string }[] = [];
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ProcessError('PARSE_ERROR', 'The spec is not an object', [{ message: 'The document must be an object', code: 'NOT_AN_OBJECT' }]);
  }
  const d = doc as Record<string, unknown>;
  const openapi = d.openapi;
  const swagger = d.swagger;
  if (typeof openapi === 'string') {
    if (!/^3\.\d+(\.\d+)?/.test(openapi)) errors.push({ message: 'Unsupported "openapi" version (3.x expected)', code: 'VERSION' });
  } else if (swagger !== undefined) {
    if (String(swagger) !== '2.0') errors.push({ message: 'Unsupported "swagger" version (2.0 expected)', code: 'VERSION' });
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
 * as a content-addressed JSON blob and a new `lastVersion` with its version record (the
 * oldest beyond openAPIVersionRetention deleted); on failure the error code and
 * errors are kept with the previous version. Every write is conditional on `processId`: a
 * run superseded by a later PUT (or a deleted spec) writes nothing. Source failures end the
 * run (state `complete` with the error); only storage errors throw, for SQS to retry.
 */
export async function processOpenAPISpec(orgId: string, slug: string, processId: string): Promise<void> {
  const spec = await readOpenAPISpec(orgId, slug, true);
  if (!spec || spec.processId !== processId) return;
  if (!(await update(orgId, slug, processId, { set: { processingState: 'progress' } }))) return;
  const now = nowIso();
  try {
    const fetched = spec.sourceURL !== undefined ? await fetchSource(spec) : undefined;
    const text = fetched ?? new TextDecoder().decode(await getBytesBlob(spec.sourceTextBlob!));
    const document = parseOpenAPIDocument(text);
    const blob = await putJsonBlob(document);
    // The text as it came, for the version's raw content (an inline source is already a blob).
    const sourceBlob = fetched !== undefined ? await putBytesBlob(new TextEncoder().encode(fetched), 'text/plain; charset=utf-8') : spec.sourceTextBlob!;
    const version: OpenAPISpecVersionItem = {
      id: newOpenAPIVersionId(), orgId, slug, specId: spec.id, createdAt: nowIso(), documentBlob: blob, sourceBlob,
      format: isJsonText(text) ? 'json' : 'yaml', ...(spec.sourceURL !== undefined ? { sourceURL: withoutCredentials(spec.sourceURL) } : {}),
    };
    // The version and the spec's move to it are one write: both or neither (superseded run).
    const written = await update(orgId, slug, processId, {
      set: {
        processingState: 'complete', lastVersion: version.id, lastVersionBlob: blob, lastProcessedAt: now, lastProcessedErrors: [], lastProcessedErrorCount: 0,
      },
      remove: ['lastProcessErrorCode'],
    }, openAPISpecVersionEntity.create({ orgId, slug, versionId: version.id }, version));
    // Retention is best effort: a failure here must not redeliver the job (that would process
    // the source again into another version); the next run trims what this one left.
    if (written) await trimOpenAPIVersions(orgId, slug, spec.id).catch((error: unknown) => logger.warn('OpenAPI version trim failed', { error }));
  } catch (error) {
    if (!(error instanceof ProcessError)) throw error;
    const errors = error.errors.length > 0 ? error.errors : [{ message: error.message, code: error.code }];
    await update(orgId, slug, processId, {
      set: {
        processingState: 'complete', lastProcessedAt: now, lastProcessErrorCode: error.code,
        lastProcessedErrors: errors.slice(0, MAX_PROCESS_ERRORS), lastProcessedErrorCount: errors.length,
      },
    });
  }
}

/**
 * Applies the change while `processId` is still the spec's run, with `alongside` in the same
 * transaction when given; false when superseded or gone (then nothing is written).
 */
async function update(orgId: string, slug: string, processId: string, change: Pick<Update<OpenAPISpecItem>, 'set' | 'remove'>, alongside?: Write): Promise<boolean> {
  const write = openAPISpecEntity.update({ orgId, slug }, { ...change, if: (w) => w.eq('processId', processId) });
  try {
    if (alongside) await transact([write, alongside]);
    else await run(write);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}
