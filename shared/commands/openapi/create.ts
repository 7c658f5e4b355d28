import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { AlreadyExists } from '../../db/errors.ts';
import { openAPISpecEntity, type OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { conflict } from '../../http/errors.ts';
import { run } from '../../db/writes.ts';
import { type OpenAPISource, sourceFields } from './source.ts';

/** Creates a spec in state `pending` and queues its processing; 409 when the slug is taken. */
export async function createOpenAPISpec(orgId: string, slug: string, source: OpenAPISource): Promise<OpenAPISpecItem> {
  const now = nowIso();
  const spec: OpenAPISpecItem = {
    id: randomId(), orgId, slug, createdAt: now, updatedAt: now, ...(await sourceFields(orgId, slug, source)),
    processingState: 'pending', visibility: 'private', processId: randomId(),
  };
  try {
    await run(openAPISpecEntity.create({ orgId, slug }, spec));
  } catch (error) {
    if (error instanceof AlreadyExists) throw conflict(`An OpenAPI spec with slug ${slug} already exists in this organization`);
    throw error;
  }
  await enqueue({ kind: 'openapi-process', organizationId: orgId, slug, processId: spec.processId });
  return spec;
}
