import { validator } from 'hono/validator';
import * as v from 'valibot';
import { ApiError } from './errors.ts';

type Target = 'json' | 'query' | 'param' | 'form';

/** Formats the first valibot issue as "<field>: <what is wrong>". */
export function issueMessage(target: Target, issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const path = v.getDotPath(issue);
  const field = path ?? (target === 'json' ? 'body' : target);
  let message = issue.message;
  // valibot reports unknown keys of strict objects with the key in the path already.
  if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') message = 'is not an allowed field';
  return `${field}: ${message}`;
}

/**
 * Validation middleware for a request part. Query values arrive as strings: schemas for
 * the query use the coercing helpers in schemas.ts. The JSON body was checked by
 * requireJsonBody (json-body.ts); an empty body validates as {}.
 */
export function validate<T extends Target, S extends v.GenericSchema>(target: T, schema: S) {
  return validator(target, (value) => {
    const result = v.safeParse(schema, value);
    if (!result.success) throw new ApiError(400, issueMessage(target, result.issues));
    return result.output as v.InferOutput<S>;
  });
}
