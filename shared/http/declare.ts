import type * as v from 'valibot';
import type { Role } from './schemas.ts';

/**
 * One declaration per operation: everything the service says about an operation lives
 * here, and the Hono route (shared/http/route.ts), the local server's routing, the API
 * Gateway routes (infra/constructs/api.ts), the README operation table
 * (`npm run readme:operations`) and the OpenAPI description (/v1/openapi.json) derive from it.
 *
 * Usage, in functions/<group>/operations.ts (schemas come from that group's schemas.ts or
 * shared/http/schemas.ts; response schemas from shared/presenters/schemas/):
 *
 *   export const group = operationGroup('collections', '4.1');
 *   export const getCollectionById = group.declare({
 *     method: 'GET', path: '/collections/{collectionId}', operationId: 'getCollectionById',
 *     summary: 'Get a collection by its ID.', role: 'read',
 *     params: collectionParams,
 *     responses: { 200: { description: 'The collection', schema: collectionSchema } },
 *   });
 *
 * The handlers (shared/http/route.ts): every file of handlers makes one sub-app, in the
 * group's app.ts (`routes`) or a sub-file (`<topic>Routes`):
 *
 *   import * as op from './operations.ts';
 *   export const moveRoutes = operationRoutes();
 *
 *   route(moveRoutes, op.moveCollection, async (c) => {
 *     const { collectionId } = c.req.valid('param');   // typed from the declaration
 *     ...
 *   });
 *
 * and the group's app.ts joins them (groupApp uses app.route), its own routes first:
 *
 *   export const app = groupApp(op.group, routes, moveRoutes);
 *
 * Every group's operations file is listed once in functions/catalogue.ts (the catalogue).
 */

export type GroupName =
  | 'organizations'
  | 'members'
  | 'teams'
  | 'collections'
  | 'spaces'
  | 'content'
  | 'change-requests'
  | 'comments'
  | 'openapi'
  | 'sites'
  | 'sso'
  | 'translations'
  | 'conversations'
  | 'integrations'
  | 'git';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented answer of an operation. */
export interface ResponseDeclaration {
  description: string;
  /** valibot schema of the JSON body; left out while nobody has described the body yet. */
  schema?: v.GenericSchema;
  /** Media type of a body that is not JSON (e.g. 'application/pdf'); none for bodiless answers. */
  contentType?: string;
}

/**
 * Who may call an operation, for the documentation only (the declared policies in shared/policies decide;
 * docs/permissions.md): at least a role on the resource the path names (the space, collection,
 * change request's space, integration; the organization for /orgs/{organizationId}/... paths,
 * where 'read' is any org role, i.e. a member who is not a guest), 'member' (any member of the
 * organization, guests included), or 'authenticated' (any valid token). Where no single role
 * says it (the author or an admin, the member themself, a second role on a target named in the
 * body), `{ rule }`: the rule in a few words, e.g. 'its author (with comment) or admin on the space'.
 */
export type RequiredRole = Role | 'member' | 'authenticated' | { rule: string };

/** What a group's operations file writes for one operation. */
export interface OperationInput {
  method: HttpMethod;
  /** Path relative to /v1 with {param} placeholders, as in the spec ({name+}: the rest of the path). */
  path: string;
  /** camelCase id, as @gitbook/api names the operation where it has it. */
  operationId: string;
  /** One short line of what it does. */
  summary: string;
  /** Spec section, e.g. '4.2'; the group's section when left out. */
  section?: string;
  /** false for operations the spec does not show but the service offers; true when left out. */
  inSpec?: boolean;
  role: RequiredRole;
  /** valibot schemas of the path parameters, the query string and the JSON body. */
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /** Every success answer by status. Errors share one shape and are described for all. */
  responses: Readonly<Record<number, ResponseDeclaration>>;
  /**
   * Structural limits of the JSON body where the defaults of shared/http/json-structure.ts
   * (sized for bodies stored in DynamoDB items) do not fit, e.g. page documents kept in S3.
   */
  bodyLimits?: BodyStructureLimits;
}

export interface BodyStructureLimits {
  /** Levels of objects and arrays, the body itself being level 1. */
  depth: number;
  /** Objects, arrays and leaves together. */
  values: number;
}

/** A declared operation, as the catalogue (functions/catalogue.ts) holds it. */
export type Operation<I extends OperationInput = OperationInput> = I & {
  group: GroupName;
  section: string;
  inSpec: boolean;
};

/** The operations of one endpoint group, in declaration order. */
export interface OperationGroup {
  readonly name: GroupName;
  readonly operations: readonly Operation[];
  declare<const I extends OperationInput>(input: I): Operation<I>;
}

/** Starts a group's declarations; `section` is the default spec section of its operations. */
export function operationGroup(name: GroupName, section: string): OperationGroup {
  const operations: Operation[] = [];
  return {
    name,
    operations,
    declare<const I extends OperationInput>(input: I): Operation<I> {
      const operation = { ...input, group: name, section: input.section ?? section, inSpec: input.inSpec ?? true } as Operation<I>;
      operations.push(operation);
      return operation;
    },
  };
}

/** '/spaces/{spaceId}' -> '/spaces/:spaceId' (Hono syntax). */
export function toHonoPath(path: string): string {
  // {name+} is API Gateway's greedy parameter (the rest of the path, slashes included).
  return path.replace(/\{([A-Za-z0-9_]+)\+\}/g, ':$1{.+}').replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Names of the path parameters, in order ('{pagePath+}' -> 'pagePath'). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\+?\}/g)].map((m) => m[1]!);
}
