import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { AlreadyExists, NotFound } from '../../db/errors.ts';
import { openAPISpecEntity, type OpenAPISpecItem, type OpenAPIVisibility } from '../../db/entities/openapi-spec.ts';
import { putBytesBlob } from '../../content/blobs.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { checkEgressUrlSyntax } from '../../net/destination.ts';
import { isEgressError } from '../../net/egress-error.ts';
import { sealCredentials, splitCredentials } from '../../net/url-credentials.ts';
import { run } from '../../db/writes.ts';

export type OpenAPISource = { url: string } | { text: string };

type SourceFields = Pick<OpenAPISpecItem, 'sourceURL' | 'sourceCredentials' | 'sourceTextBlob'>;

/** What the sealed credentials of a spec are bound to: they open for this spec only. */
export const credentialsRecordId = (orgId: string, slug: string) => `openapi:${orgId}/${slug}`;

/**
 * Stored source fields of a request's `source`: inline text goes to a blob (items stay
 * small); a URL is refused at once when it names a non-public address literally, and
 * its credentials are sealed apart from it (the stored and presented URL has none).
 */
async function sourceFields(orgId: string, slug: string, source: OpenAPISource): Promise<SourceFields> {
  if (!('url' in source)) return { sourceTextBlob: await putBytesBlob(new TextEncoder().encode(source.text), 'text/plain; charset=utf-8') };
  try {
    checkEgressUrlSyntax(source.url, 'source.url');
  } catch (error) {
    if (isEgressError(error)) throw badRequest(error.message);
    throw error;
  }
  const { url, credentials } = splitCredentials(source.url);
  return { sourceURL: url, ...(credentials ? { sourceCredentials: await sealCredentials(credentials, credentialsRecordId(orgId, slug)) } : {}) };
}

export async function readOpenAPISpec(orgId: string, slug: string, consistent = false): Promise<OpenAPISpecItem | undefined> {
  return openAPISpecEntity.get({ orgId, slug }, { consistent });
}

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

/** PUT: creates the spec (created: true) or replaces its source. Retries the create/update race once. */
export async function putOpenAPISpec(orgId: string, slug: string, source: OpenAPISource): Promise<{ spec: OpenAPISpecItem; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const updated = await replaceOpenAPISource(orgId, slug, source);
    if (updated) return { spec: updated, created: false };
    try {
      return { spec: await createOpenAPISpec(orgId, slug, source), created: true };
    } catch (error) {
      if (attempt > 0 || (error as { status?: number }).status !== 409) throw error;
    }
  }
}

export async function setOpenAPIVisibility(orgId: string, slug: string, visibility: OpenAPIVisibility): Promise<OpenAPISpecItem> {
  try {
    return await run(openAPISpecEntity.update({ orgId, slug }, { set: { visibility, updatedAt: nowIso() } }));
  } catch (error) {
    if (error instanceof NotFound) throw notFound(`No OpenAPI spec found with slug ${slug}`);
    throw error;
  }
}

/** Deletes the spec item (its blobs are content-addressed and may be shared: they stay). */
export async function deleteOpenAPISpec(orgId: string, slug: string): Promise<boolean> {
  return (await run(openAPISpecEntity.delete({ orgId, slug }))) !== undefined;
}
