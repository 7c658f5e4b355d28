import * as v from 'valibot';
import { roles } from '../../http/schemas.ts';

/**
 * Pieces shared by the response schemas (what the presenters return, spec part 2). They
 * describe answers, not requests: no messages, no transforms, only what converts to JSON
 * Schema for the service's own OpenAPI description.
 */

/** ISO 8601 date-time (spec 2.1 item 3). */
export const timestampSchema = v.pipe(v.string(), v.isoTimestamp());

/** An absolute URL (`urls.*`, download URLs). */
export const urlSchema = v.pipe(v.string(), v.url());

export const roleSchema = v.picklist(roles);
export const nullableRoleSchema = v.nullable(roleSchema);
/** `defaultLevel`: a role, null, or "inherit" (docs/decisions.md, Roles and levels). */
export const defaultLevelSchema = v.union([roleSchema, v.null(), v.literal('inherit')]);

const mergeRuleSchema = v.object({
  rule: v.string(),
  users: v.optional(v.array(v.string())),
  expression: v.optional(v.string()),
  message: v.optional(v.string()),
});

/** Merge rules of an organization or a space (spec 2.3). */
export const mergeRulesSchema = v.variant('type', [
  v.object({ type: v.literal('inherit') }),
  v.object({ type: v.literal('none') }),
  v.object({ type: v.literal('rules'), rules: v.array(mergeRuleSchema) }),
]);

/** A rich document as the caller wrote it (spec 2.1 item 6): blocks are kept as given. */
export const richDocumentSchema = v.looseObject({
  object: v.literal('document'),
  data: v.optional(v.record(v.string(), v.unknown())),
  nodes: v.array(v.unknown()),
});

/** A content reference (spec 2.1 item 5): `kind` and the id field named after it. */
export const contentRefSchema = v.looseObject({ kind: v.string() });

/** A non-negative counter. */
export const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0));
