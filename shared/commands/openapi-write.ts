import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { getRecord } from '../db/operations.ts';
import { openAPISpecEntity, type OpenAPISpecItem, type OpenAPIVisibility } from '../db/entities/openapi-spec.ts';
import { putBytesBlob } from '../content/blobs.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { conflict, notFound } from '../http/errors.ts';

export type OpenAPISource = { url: string } | { text: string };

const isConditionFailure = (error: unknown) => (error as Error)?.name === 'ConditionalCheckFailedException';

/** Stored source fields of a request's `source` (inline text goes to a blob: items stay small). */
async function sourceFields(source: OpenAPISource): Promise<Pick<OpenAPISpecItem, 'sourceURL' | 'sourceTextBlob'>> {
  if ('url' in source) return { sourceURL: source.url };
  return { sourceTextBlob: await putBytesBlob(new TextEncoder().encode(source.text), 'text/plain; charset=utf-8') };
}

export async function readOpenAPISpec(orgId: string, slug: string, consistent = false): Promise<OpenAPISpecItem | undefined> {
  const record = await getRecord(openAPISpecEntity.key({ orgId, slug }), consistent);
  return record ? openAPISpecEntity.fromRecord(record) : undefined;
}

/** Creates a spec in state `pending` and queues its processing; 409 when the slug is taken. */
export async function createOpenAPISpec(orgId: string, slug: string, source: OpenAPISource): Promise<OpenAPISpecItem> {
  const now = nowIso();
  const spec: OpenAPISpecItem = {
    id: randomId(), orgId, slug, createdAt: now, updatedAt: now, ...(await sourceFields(source)),
    processingState: 'pending', visibility: 'private', processId: randomId(),
  };
  try {
    await db().send(new PutCommand({
      TableName: config.tableName,
      Item: openAPISpecEntity.toRecord({ orgId, slug }, spec),
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  } catch (error) {
    if (isConditionFailure(error)) throw conflict(`An OpenAPI spec with slug ${slug} already exists in this organization`);
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
  const fields = await sourceFields(source);
  const processId = randomId();
  const now = nowIso();
  try {
    const out = await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: openAPISpecEntity.key({ orgId, slug }),
      UpdateExpression: `SET updatedAt = :now, processingState = :pending, processId = :pid, ${'url' in source ? 'sourceURL = :src REMOVE sourceTextBlob' : 'sourceTextBlob = :src REMOVE sourceURL'}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now, ':pending': 'pending', ':pid': processId, ':src': fields.sourceURL ?? fields.sourceTextBlob },
      ReturnValues: 'ALL_NEW',
    }));
    await enqueue({ kind: 'openapi-process', organizationId: orgId, slug, processId });
    return openAPISpecEntity.fromRecord(out.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
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
    const out = await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: openAPISpecEntity.key({ orgId, slug }),
      UpdateExpression: 'SET visibility = :v, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':v': visibility, ':now': nowIso() },
      ReturnValues: 'ALL_NEW',
    }));
    return openAPISpecEntity.fromRecord(out.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw notFound(`No OpenAPI spec found with slug ${slug}`);
    throw error;
  }
}

/** Deletes the spec item (its blobs are content-addressed and may be shared: they stay). */
export async function deleteOpenAPISpec(orgId: string, slug: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({
    TableName: config.tableName, Key: openAPISpecEntity.key({ orgId, slug }), ReturnValues: 'ALL_OLD',
  }));
  return out.Attributes !== undefined;
}
