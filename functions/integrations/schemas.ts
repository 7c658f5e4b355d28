import * as v from 'valibot';
import { egressUrl } from '../../shared/net/url-schema.ts';
import { id, listQueryEntries, MAX_STORED_FIELD_BYTES, queryBoolean, storedSize } from '../../shared/http/schemas.ts';
import { maxChars, minChars } from '../../shared/http/string-length.ts';

const name = v.pipe(v.string('must be a string'), v.regex(/^[a-zA-Z0-9-_.]+$/, 'must match ^[a-zA-Z0-9-_.]+$'), v.maxLength(100, 'must be at most 100 characters'));

/** Path parameters of the `integrations` group. */
export const pathParams = v.partial(v.object({ eventId: id, integrationName: name }));
export const integrationParams = v.object({ integrationName: name });
export const eventParams = v.object({ integrationName: name, eventId: id });

const text = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`));
/** Text people read (titles, descriptions, labels), counted in characters (shared/http/string-length.ts). */
const prose = (max: number) => v.pipe(v.string('must be a string'), maxChars(max));
/** Images go to S3 blobs; the 6 MB body limit bounds them together. */
const MAX_IMAGE_BASE64 = 2 * 1024 * 1024;
const base64 = v.pipe(v.string('must be a base64 string'), v.maxLength(MAX_IMAGE_BASE64, 'must be at most 2 MB'), v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be a base64 string'));
/** A list of at most `max` items. */
const list = <T extends v.GenericSchema>(item: T, max: number, message: string) => v.pipe(v.array(item, message), v.maxLength(max, `must hold at most ${max} items`));
/** An object of at most `max` entries with short keys. */
const stringMap = <T extends v.GenericSchema>(value: T, max: number, message: string) => v.pipe(v.record(text(100), value, message), v.maxEntries(max, `must have at most ${max} entries`));
/** Known values only (spec 2.1.8: the full sets are not shown). */
export const visibilities = ['public', 'private', 'unlisted'] as const;
export const targets = ['all', 'site', 'space', 'organization'] as const;
/** PublishIntegration `runtime` of the public interface; `@gitbook/cli` publishes with `v2`. */
export const runtimes = ['v1', 'v2'] as const;
export const scope = v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters'), v.regex(/^[a-z_-]+:[a-z_-]+:[a-z_-]+$/, 'must be <resource>:<area>:<action>'));
const category = v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9-]+$/, 'must be a lower-case category name'), v.maxLength(50, 'must be at most 50 characters'));

const icon = v.optional(text(100));
/** Block and content source titles: 2 to 40 characters (the public IntegrationBlock). */
const shortTitle = v.pipe(v.string('must be a string'), minChars(2, 'must be 2 to 40 characters'), maxChars(40, 'must be 2 to 40 characters'));
const block = v.strictObject({
  id: id, title: shortTitle, description: v.optional(prose(500)), icon,
  urlUnfurl: v.optional(list(text(2048), 20, 'must be an array of URL patterns')),
  markdown: v.optional(v.strictObject({ codeblock: text(100), body: text(1000) })),
});
const contentSource = v.strictObject({
  id: id, title: shortTitle, description: v.optional(prose(500)), icon,
  configuration: v.strictObject({ componentId: id }),
});
const configurationProperty = v.looseObject({
  title: v.optional(prose(200)), description: v.optional(prose(1000)), type: v.optional(text(50)), default: v.optional(v.unknown()),
  completion_url: v.optional(text(2048)), enum: v.optional(list(text(200), 100, 'must be an array of strings')),
});
/** Stored in the integration's item: at most 64 KB each (a DynamoDB item holds 400 KB). */
const configurationSchema = v.pipe(
  v.strictObject({
    properties: v.optional(stringMap(configurationProperty, 100, 'must be an object of properties')),
    required: v.optional(list(text(100), 100, 'must be an array of strings')),
  }),
  storedSize(64 * 1024),
);

/** POST /integrations/{integrationName}: publish or update (every published field is resent). */
export const publishBody = v.pipe(v.strictObject({
  // Both names of the public interface; stored as given, run alike (docs/decisions.md, Integrations).
  runtime: v.optional(v.picklist(runtimes, `must be one of ${runtimes.join(', ')}`), 'v1'),
  icon: v.optional(base64),
  title: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), maxChars(100)),
  description: prose(1000),
  summary: v.optional(prose(20000)),
  previewImages: v.optional(v.pipe(v.array(base64, 'must be an array of base64 strings'), v.maxLength(5, 'must hold at most 5 images')), []),
  visibility: v.optional(v.picklist(visibilities, `must be one of ${visibilities.join(', ')}`), 'private'),
  target: v.optional(v.picklist(targets, `must be one of ${targets.join(', ')}`), 'all'),
  scopes: v.optional(list(scope, 100, 'must be an array of scopes'), []),
  categories: v.optional(list(category, 20, 'must be an array of categories'), []),
  blocks: v.optional(list(block, 50, 'must be an array of blocks'), []),
  contentSources: v.optional(list(contentSource, 50, 'must be an array of content sources'), []),
  externalLinks: v.optional(list(v.strictObject({ url: v.pipe(text(2048), v.url('must be a URL')), label: prose(100) }), 20, 'must be an array of links'), []),
  configurations: v.optional(v.strictObject({
    account: v.optional(configurationSchema), space: v.optional(configurationSchema), site: v.optional(configurationSchema),
  }), {}),
  script: v.optional(v.pipe(v.string('must be a string'), v.maxLength(5 * 1024 * 1024, 'must be at most 5 MB'))),
  organization: id,
  secrets: v.optional(stringMap(text(4096), 50, 'must be an object of strings'), {}),
  contentSecurityPolicy: v.optional(v.union([text(4096), stringMap(text(4096), 50, 'must be an object of strings')], 'must be a string or an object of strings')),
}), v.check(
  // Everything but the script and the images (S3 blobs) is stored in the integration's item.
  (b) => Buffer.byteLength(JSON.stringify({ ...b, script: undefined, icon: undefined, previewImages: undefined })) <= MAX_STORED_FIELD_BYTES,
  `must be at most ${MAX_STORED_FIELD_BYTES / 1024} KB once serialized (without script, icon and preview images)`,
));
export type PublishBody = v.InferOutput<typeof publishBody>;

export const listIntegrationsQuery = v.object({
  ...listQueryEntries,
  search: v.optional(text(100)),
  category: v.optional(category),
  blockDomain: v.optional(name),
  blocks: v.optional(queryBoolean),
  contentSources: v.optional(queryBoolean),
  owner: v.optional(id),
  scope: v.optional(scope),
  target: v.optional(v.picklist(targets, `must be one of ${targets.join(', ')}`)),
});

export const listInstallationsQuery = v.object({ ...listQueryEntries, externalId: v.optional(text(200)) });
export const listEventsQuery = v.object(listQueryEntries);

export const installBody = v.strictObject({ organization: id });

export const devBody = v.strictObject({
  // Checked again (resolved addresses) at every delivery: shared/net.
  tunnelUrl: egressUrl,
  all: v.optional(v.boolean('must be a boolean'), false),
});

/** GET /integrations/{name}/spaces and /sites: `extended` returns the object instead of its id. */
export const listTargetsQuery = v.object({
  ...listQueryEntries,
  externalId: v.optional(text(200)),
  extended: v.optional(queryBoolean, 'false'),
});
