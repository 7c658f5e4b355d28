import * as v from 'valibot';
import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import { pathParamNames, type Operation, type RequiredRole } from './declare.ts';
import { charLimitOf } from './string-length.ts';

/**
 * The service's own OpenAPI 3.1 description, built from the operation declarations
 * (shared/http/declare.ts): paths, parameters, request bodies and responses come from each
 * declaration's valibot schemas (converted with @valibot/to-json-schema), tags from the
 * groups; the required role is in each operation's description ("Requires: ...") and its
 * `x-required-role` extension (the declaration's value: a role name, 'member', 'authenticated'
 * or {rule}). Served at GET /v1/openapi.json (shared/http/service-description.ts).
 */

type Json = Record<string, unknown>;

/** maxChars/minChars (shared/http/string-length.ts) are checks to valibot; they count as JSON Schema's maxLength/minLength do. */
function overrideAction({ valibotAction, jsonSchema }: { valibotAction: unknown; jsonSchema: JsonSchema }): JsonSchema | undefined {
  const limit = charLimitOf(valibotAction);
  if (!limit) return undefined;
  const bounded = { ...jsonSchema };
  if (limit.maxLength !== undefined) bounded.maxLength = Math.min(jsonSchema.maxLength ?? Infinity, limit.maxLength);
  if (limit.minLength !== undefined) bounded.minLength = Math.max(jsonSchema.minLength ?? 0, limit.minLength);
  return bounded;
}

/** Requests are described as callers write them (query values as strings, before coercion). */
const requestConversion: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore', overrideAction };
/** Answers are described as the service writes them. */
const responseConversion: ConversionConfig = { target: 'draft-2020-12', typeMode: 'output', errorMode: 'ignore', overrideAction };

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', description: 'The HTTP status' },
        message: { type: 'string', description: 'What is wrong; validation messages start with the field: "title: ..."' },
      },
    },
  },
} as const;

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** Answers every operation may give besides its declared ones. */
const commonErrors = {
  400: { $ref: '#/components/responses/BadRequest' },
  401: { $ref: '#/components/responses/Unauthorized' },
  403: { $ref: '#/components/responses/Forbidden' },
  404: { $ref: '#/components/responses/NotFound' },
  default: { $ref: '#/components/responses/Error' },
};

/** The entries of an object schema, also inside a pipe (`v.pipe(v.object(...), v.check(...))`). */
function objectEntries(schema: v.GenericSchema | undefined): Record<string, v.GenericSchema> {
  let current = schema as (v.GenericSchema & { entries?: Record<string, v.GenericSchema>; pipe?: v.GenericSchema[] }) | undefined;
  while (current && !current.entries && current.type === 'pipe' && current.pipe) current = current.pipe[0] as typeof current;
  return current?.entries ?? {};
}

const isOptional = (schema: v.GenericSchema) => ['optional', 'nullish', 'exact_optional'].includes(schema.type);

/**
 * Definitions of recursive schemas (a rich document's blocks), shared by the whole document
 * under components.schemas: the converter names them #/$defs/<n> inside each schema.
 */
class SharedDefinitions {
  readonly schemas: Record<string, unknown> = {};
  private readonly names = new Map<string, string>();

  convert(schema: v.GenericSchema, config: ConversionConfig): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = toJsonSchema(schema, config) as JsonSchema & { $schema?: string; $defs?: Record<string, unknown> };
    if (!$defs) return rest as JsonSchema;
    const renamed = new Map(Object.keys($defs).map((key) => [key, this.nameOf($defs, key)]));
    const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_m, key: string) => JSON.stringify(`#/components/schemas/${renamed.get(key)}`)));
    for (const [key, name] of renamed) this.schemas[name] ??= rewrite($defs[key]);
    return rewrite(rest) as JsonSchema;
  }

  /** One name per distinct definition (the same recursive schema converted twice is one component). */
  private nameOf(defs: Record<string, unknown>, key: string): string {
    const text = JSON.stringify(defs[key]);
    let name = this.names.get(text);
    if (!name) this.names.set(text, (name = `Definition${this.names.size + 1}`));
    return name;
  }
}

let definitions = new SharedDefinitions();
const convert = (schema: v.GenericSchema, config: ConversionConfig) => definitions.convert(schema, config);

function parameters(operation: Operation): Json[] {
  const pathEntries = objectEntries(operation.params);
  const inPath = pathParamNames(operation.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: pathEntries[name] ? convert(pathEntries[name], requestConversion) : { type: 'string' },
  }));
  const inQuery = Object.entries(objectEntries(operation.query)).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !isOptional(schema),
    schema: convert(schema, requestConversion),
  }));
  return [...inPath, ...inQuery];
}

function requestBody(operation: Operation): Json | undefined {
  if (!operation.body) return undefined;
  // An empty body reads as {}: it is required only when {} is not a valid body.
  const required = !v.safeParse(operation.body, {}).success;
  return { required, content: { 'application/json': { schema: convert(operation.body, requestConversion) } } };
}

function responses(operation: Operation): Json {
  const declared: Json = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    if (status === '204' || status === '205') declared[status] = { description: response.description };
    else if (response.contentType) declared[status] = { description: response.description, content: { [response.contentType]: { schema: { type: 'string', contentMediaType: response.contentType } } } };
    else declared[status] = { description: response.description, content: { 'application/json': { schema: response.schema ? convert(response.schema, responseConversion) : {} } } };
  }
  return { ...declared, ...commonErrors };
}

/** The declaration's role in words, for the operation's description. */
function requirement(role: RequiredRole): string {
  if (typeof role !== 'string') return role.rule;
  if (role === 'authenticated') return 'any valid token';
  if (role === 'member') return 'membership of the organization (guests included)';
  return role === 'admin' ? 'the admin role' : `the ${role} role or above`;
}

function describe(operation: Operation): Json {
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.group],
    ...(operation.role ? { description: `Requires: ${requirement(operation.role)}.`, 'x-required-role': operation.role } : {}),
    parameters: parameters(operation),
    ...(operation.body ? { requestBody: requestBody(operation) } : {}),
    responses: responses(operation),
    'x-spec-section': operation.section,
    'x-in-spec': operation.inSpec,
  };
}

/** '{pagePath+}' (API Gateway's greedy parameter) is '{pagePath}' in OpenAPI. */
const openApiPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\+\}/g, '{$1}');

export function buildOpenApiDocument(operations: readonly Operation[]): Json {
  definitions = new SharedDefinitions();
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    const path = (paths[openApiPath(operation.path)] ??= {});
    path[operation.method.toLowerCase()] = describe(operation);
  }
  const tags = [...new Set(operations.map((o) => o.group))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Docs publishing service',
      version: '1',
      description: 'Organizations, spaces, content, change requests, sites and more; compatible with the official client @gitbook/api. Errors are always {"error":{"code","message"}}.',
    },
    // Relative to this document (/v1/openapi.json): the API under the same origin.
    servers: [{ url: '/v1' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token (`npm run admin -- token create`)' } },
      schemas: { Error: errorSchema, ...definitions.schemas },
      responses: {
        BadRequest: errorResponse('Invalid input; the message names the field'),
        Unauthorized: errorResponse('Missing, unknown, revoked or expired bearer token'),
        Forbidden: errorResponse('Allowed to read but not to do this'),
        NotFound: errorResponse('No such resource (or not visible to the caller)'),
        Error: errorResponse('Any other error (409, 413, 429, 500, 501)'),
      },
    },
  };
}
