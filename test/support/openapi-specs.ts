import { openAPISpecEntity } from '../../shared/db/entities/openapi-spec.ts';
import { pollOnce } from '../../shared/local/queue-poller.ts';
import { getRecord } from '../../shared/db/operations.ts';

/** The stored OpenAPI spec record of an organization, if any. */
export async function storedSpec(orgId: string, slug: string) {
  const record = await getRecord(openAPISpecEntity.key({ orgId, slug }));
  return record ? openAPISpecEntity.fromRecord(record) : undefined;
}

/** Polls the jobs queue until the spec's processing run ended (other files' jobs may share the queue). */
export async function processedSpec(orgId: string, slug: string) {
  for (let i = 0; i < 40; i++) {
    const spec = await storedSpec(orgId, slug);
    if (spec?.processingState === 'complete') return spec;
    await pollOnce('jobs', 1);
  }
  throw new Error(`spec ${slug} was not processed (state ${(await storedSpec(orgId, slug))?.processingState})`);
}
