import type { Context } from 'hono';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import type { OpenAPISpecItem } from '../../shared/db/entities/openapi-spec.ts';
import type { OpenAPISpecVersionItem } from '../../shared/db/entities/openapi-spec-version.ts';
import { readOpenAPISpec } from '../../shared/commands/openapi/store.ts';
import { findOpenAPIVersion, listOpenAPIVersions } from '../../shared/commands/openapi/versions.ts';
import { getBytesBlob, getJsonBlob } from '../../shared/content/blobs.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentOpenAPISpecContent, presentOpenAPISpecVersion } from '../../shared/presenters/openapi-spec-version.ts';
import { readAccess } from './access.ts';

/**
 * A spec's processed versions (the public interface's `openapi-versions`, beyond spec 4.6):
 * one per successful processing, newest first. Read as the spec is (any non-guest member).
 * Routes on `latest` come before those on `{versionId}`: the first matching route answers.
 */
export const versionRoutes = operationRoutes();

async function specOf(c: Context<AppEnv>, orgId: string, slug: string): Promise<OpenAPISpecItem> {
  await readAccess(c, orgId);
  const spec = await readOpenAPISpec(orgId, slug);
  if (!spec) throw notFound(`No OpenAPI spec found with slug ${slug}`);
  return spec;
}

async function versionOf(spec: OpenAPISpecItem, versionId: string): Promise<OpenAPISpecVersionItem> {
  const version = await findOpenAPIVersion(spec, versionId);
  if (!version) throw notFound(`No version ${versionId} found for OpenAPI spec ${spec.slug}`);
  return version;
}

async function latestOf(spec: OpenAPISpecItem): Promise<OpenAPISpecVersionItem> {
  if (!spec.lastVersion) throw notFound(`OpenAPI spec ${spec.slug} has no processed version yet`);
  return versionOf(spec, spec.lastVersion);
}

const contentOf = async (spec: OpenAPISpecItem, version: OpenAPISpecVersionItem) =>
  presentOpenAPISpecContent(spec, version, await getJsonBlob<Record<string, unknown>>(version.documentBlob));

route(versionRoutes, op.listOpenAPISpecVersions, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const spec = await specOf(c, organizationId, specSlug);
  const result = await listOpenAPIVersions(spec, { limit, cursor: page });
  return c.json(presentList(result.items.map(presentOpenAPISpecVersion), result.next));
});

route(versionRoutes, op.getLatestOpenAPISpecVersion, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const spec = await specOf(c, organizationId, specSlug);
  return c.json(presentOpenAPISpecVersion(await latestOf(spec)));
});

route(versionRoutes, op.getLatestOpenAPISpecVersionContent, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const spec = await specOf(c, organizationId, specSlug);
  return c.json(await contentOf(spec, await latestOf(spec)));
});

route(versionRoutes, op.getLatestOpenAPISpecVersionContentRaw, async (c) => {
  const { organizationId, specSlug } = c.req.valid('param');
  const spec = await specOf(c, organizationId, specSlug);
  const version = await latestOf(spec);
  // Public interface: 404 when the version has no raw source (processed before sources were kept).
  if (!version.sourceBlob) throw notFound(`Version ${version.id} of OpenAPI spec ${spec.slug} has no raw source`);
  // The text exactly as submitted: a byte order mark is kept.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await getBytesBlob(version.sourceBlob));
  return c.json({ text, format: version.format });
});

route(versionRoutes, op.getOpenAPISpecVersionById, async (c) => {
  const { organizationId, specSlug, versionId } = c.req.valid('param');
  const spec = await specOf(c, organizationId, specSlug);
  return c.json(presentOpenAPISpecVersion(await versionOf(spec, versionId)));
});

route(versionRoutes, op.getOpenAPISpecVersionContentById, async (c) => {
  const { organizationId, specSlug, versionId } = c.req.valid('param');
  const spec = await specOf(c, organizationId, specSlug);
  return c.json(await contentOf(spec, await versionOf(spec, versionId)));
});
