import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { validator } from 'hono/validator';
import * as v from 'valibot';
import { ApiError } from './errors.ts';
import { jsonBodyValue } from './json-body.ts';

type Target = 'json' | 'query' | 'param' | 'form';

/** What a schema of the given type expects, in the service's words ("must be a string"). */
const expectedWords: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  strict_object: 'an object',
  loose_object: 'an object',
  object_with_rest: 'an object',
  record: 'an object',
  null: 'null',
};

/** valibot's own wording ("Invalid type: Expected string but received 3"), used where a schema gave none. */
const isDefaultMessage = (issue: v.BaseIssue<unknown>): boolean =>
  /^Invalid [\w ]+: (?:Expected [\s\S]* but r|R)eceived /.test(issue.message) && issue.message.endsWith(`eceived ${issue.received}`);

/**
 * A key the schema requires and the input lacks: an object's missing entry (valibot's
 * "Invalid key: Expected "x" but received undefined", or the object's own message when it
 * has one), or a variant's missing discriminator. Unknown keys of strict objects are in the
 * input, so they are not missing.
 */
function isMissingKey(issue: v.BaseIssue<unknown>): boolean {
  if (issue.kind !== 'schema') return false;
  const last = issue.path?.at(-1);
  return last?.type === 'object' && typeof last.input === 'object' && last.input !== null && !Object.hasOwn(last.input, last.key);
}

/** The wrong-type message of a schema that gave none: "must be a string", "must be one of a, b". */
function typeMessage(issue: v.BaseIssue<unknown>): string {
  const words = expectedWords[issue.type];
  if (words) return `must be ${words}`;
  const expected = issue.expected ?? '';
  if (issue.type === 'picklist') {
    const options = expected.replace(/^\((.*)\)$/s, '$1').split(' | ').map((o) => o.replace(/^"(.*)"$/s, '$1'));
    return options.length > 1 ? `must be one of ${options.join(', ')}` : `must be ${options[0]}`;
  }
  return `must be ${expected}`;
}

/**
 * Formats the first valibot issue as "<field>: <what is wrong>", in the service's words
 * whatever the schema: a missing key "is required", an unknown key of a strict object "is
 * not an allowed field", a repeated query parameter "must be given once", a wrong type
 * without the schema's own message "must be a string" (and the like); every other message
 * is the schema's.
 */
export function issueMessage(target: Target, issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const path = v.getDotPath(issue);
  const field = path ?? (target === 'json' ? 'body' : target);
  let message = issue.message;
  if (isMissingKey(issue)) message = 'is required';
  // valibot reports unknown keys of strict objects with the key in the path already.
  else if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') message = 'is not an allowed field';
  // A query parameter sent twice arrives as an array where the schema wants one value.
  else if (target === 'query' && issue.kind === 'schema' && issue.type !== 'union' && issue.path?.length === 1 && Array.isArray(issue.input)) message = 'must be given once';
  else if (issue.kind === 'schema' && isDefaultMessage(issue)) message = typeMessage(issue);
  return `${field}: ${message}`;
}

function check<S extends v.GenericSchema>(target: Target, schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new ApiError(400, issueMessage(target, result.issues));
  return result.output;
}

/**
 * Validation middleware for a request part. Query values arrive as strings: schemas for
 * the query use the coercing helpers in schemas.ts. The JSON body was checked by
 * requireJsonBody (json-body.ts) and is read by jsonBodyValue: an empty body validates as
 * {}, whatever its Content-Type (Hono's own json validator would call it malformed).
 */
export function validate<T extends Target, S extends v.GenericSchema>(target: T, schema: S) {
  const middleware = validator(target, (value) => check(target, schema, value));
  if (target !== 'json') return middleware;
  const json = createMiddleware(async (c: Context, next) => {
    c.req.addValidatedData('json', check(target, schema, await jsonBodyValue(c)) as object);
    await next();
  });
  return json as unknown as typeof middleware;
}
