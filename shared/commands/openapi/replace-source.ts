import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { NotFound } from '../../db/errors.ts';
import { openAPISpecEntity, type OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { run } from '../../db/writes.ts';
import { type OpenAPISource, sourceFields } from './source.ts';

/**
 * Replaces the source of an existing spec, back to `pending` with a new processing run
 * (the last version and its results stay until the run ends). Undefined when absent.
 */
export async function replaceOpenAPISource(orgId: string, slug: string, source: OpenAPISource): Promise<OpenAPISpecItem | undefined> {
  const fields = await sourceFields(orgId, slug, source);
  const processId = randomId();
  const now = nowIso();
  // The source fields not given are removed (a URL source drops the text blob and vice versa).
  const sourceAttributes = ['sourceURL', 'sourceCredentials', 'sourceTextBlob'] as const;
  let updated: OpenAPISpecItem;
  try {
    updated = await run(openAPISpecEntity.update({ orgId, slug }, {
      set: { updatedAt: now, processingState: 'pending', processId, ...fields },
      remove: sourceAttributes.filter((attr) => fields[attr] === undefined),
    }));
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
  await enqueue({ kind: 'openapi-process', organizationId: orgId, slug, processId });
  return updated;
}
