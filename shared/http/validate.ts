import { validator } from 'hono/validator';
import * as v from 'valibot';
import { ApiError } from './errors.ts';

type Target = 'json' | 'query' | 'param';

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
 * the query use the coercing helpers in schemas.ts. An unparsable JSON body is a 400.
 */
export function validate<T extends Target, S extends v.GenericSchema>(target: T, schema: S) {
  return validator(target, async (value, c) => {
    if (target === 'json') {
      // Hono parses JSON only with a JSON content type; read it ourselves for a clear error.
      const text = await c.req.text();
      let body: unknown = {};
      if (text.trim().length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          throw new ApiError(400, 'body: is not valid JSON');
        }
      }
      value = body as typeof value;
    }
    const result = v.safeParse(schema, value);
    if (!result.success) throw new ApiError(400, issueMessage(target, result.issues));
    return result.output as v.InferOutput<S>;
  });
}
