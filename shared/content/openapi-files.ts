import { openAPIFetchLimits, parseOpenAPIDocument, ProcessError } from '../commands/openapi/process.ts';
import { SizedLru } from '../sized-lru.ts';
import { getBytesBlob } from './blobs.ts';
import type { ManifestFile } from './types.ts';

/**
 * The spec of a `{% swagger src="../.gitbook/assets/petstore.yaml" %}` block whose `src` is a
 * file of the space (imported from Git or uploaded), as GitBook's renderer reads a legacy
 * block's source: the file's bytes are the spec. Read from the revision's file blob within the
 * limits of a spec fetched from its URL (openAPIFetchLimits: size and time), parsed and checked
 * by the same parser as stored specs (parseOpenAPIDocument: JSON or YAML, depth and alias
 * guards). A failure is a reason the page says in place of the operation, never an error page.
 */

export type SpecFileFailure =
  | { reason: 'missing' }
  | { reason: 'unreadable'; detail: string };

export type SpecFile = { document: Record<string, unknown> } | { failure: SpecFileFailure };

/** Parsed files by blob hash (a blob never changes), bounded by roughly their size in memory. */
const parsed = new SizedLru<SpecFile>(64 * 1024 * 1024);
/** A parsed document takes several times its text in memory. */
const HEAP_PER_BYTE = 4;

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`);

/** A parse failure as the page says it: the parser's message and its first located error (never the file's text). */
function parseFailure(error: ProcessError): SpecFileFailure {
  const first = error.errors[0]?.message;
  return { reason: 'unreadable', detail: first && first !== error.message ? `${error.message}: ${first}` : error.message };
}

/** The spec in `fileId` of the revision's files (an id, or a path that resolved to no file when written). */
export async function openAPIFile(files: ManifestFile[], fileId: string): Promise<SpecFile> {
  const file = files.find((f) => f.id === fileId);
  if (!file) return { failure: { reason: 'missing' } };
  const { maxBytes, timeoutMs } = openAPIFetchLimits;
  if (file.size > maxBytes) return { failure: { reason: 'unreadable', detail: `The file is larger than ${size(maxBytes)}, the largest spec read` } };
  const hit = parsed.get(file.blob);
  if (hit) return hit;
  let bytes: Uint8Array;
  try {
    bytes = await getBytesBlob(file.blob, { abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    // Past the time a fetched spec has (not remembered: the next view reads it again); storage errors stay errors.
    if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') {
      return { failure: { reason: 'unreadable', detail: `Reading the file took longer than ${timeoutMs / 1000} s` } };
    }
    throw error;
  }
  let result: SpecFile;
  try {
    result = { document: parseOpenAPIDocument(new TextDecoder().decode(bytes)) };
  } catch (error) {
    if (!(error instanceof ProcessError)) throw error;
    result = { failure: parseFailure(error) };
  }
  parsed.set(file.blob, result, Math.max(bytes.length * HEAP_PER_BYTE, 1024));
  return result;
}
