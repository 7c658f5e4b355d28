import * as v from 'valibot';
import { operations, type Operation } from '../../functions/catalogue.ts';

/**
 * Validates an answer of the service against its own description: the operation declared
 * for the method and path (shared/http/declare.ts, the source of /v1/openapi.json), the
 * status among its declared answers, the body against the declared response schema.
 * Errors have the one shape every operation shares (shared/http/errors.ts).
 */
interface Template {
  operation: Operation;
  pattern: RegExp;
  params: number;
  greedy: boolean;
}

const templates: Template[] = operations.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path
    .replace(/[.*?^$()|[\]\\]/g, '\\$&')
    .replace(/\{[A-Za-z0-9_]+\+\}/g, '.+')
    .replace(/\{[A-Za-z0-9_]+\}/g, '[^/]+')}$`),
  params: (operation.path.match(/\{/g) ?? []).length,
  greedy: operation.path.includes('+}'),
})).sort((a, b) => Number(a.greedy) - Number(b.greedy) || a.params - b.params);

const errorSchema = v.looseObject({
  error: v.looseObject({ code: v.pipe(v.number(), v.integer()), message: v.string() }),
});

/** The declared operation a method and path (relative to /v1, no query) reach, if any. */
export function ownOperation(method: string, path: string): Operation | undefined {
  return templates.find((t) => t.operation.method === method.toUpperCase() && t.pattern.test(path))?.operation;
}

export interface OwnContractResult {
  /** "METHOD /declared/path", or undefined when no declaration covers the answer. */
  operation?: string;
  errors: string[];
}

export function checkOwnContract(method: string, path: string, status: number, body: unknown): OwnContractResult {
  const operation = ownOperation(method, path.split('?')[0]!);
  if (!operation) return { errors: [] };
  const name = `${operation.method} ${operation.path}`;
  if (status >= 400) return { operation: name, errors: issues(errorSchema, body) };
  const declared = operation.responses[status];
  if (!declared) return { operation: name, errors: [`status ${status} is not declared (${Object.keys(operation.responses).join(', ')})`] };
  if (!declared.schema || declared.contentType) return { operation: name, errors: [] };
  return { operation: name, errors: issues(declared.schema, body) };
}

function issues(schema: v.GenericSchema, body: unknown): string[] {
  const result = v.safeParse(schema, body);
  if (result.success) return [];
  return result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
}
