import type * as v from 'valibot';
import { isStoredSizeCheck } from '../../../shared/http/schemas.ts';
import { charLimitOf } from '../../../shared/http/string-length.ts';

/**
 * Paths of a valibot schema where a string, array, record or free-form value has no
 * maximum: every body must bound each of them (maxLength on strings and arrays, maxEntries
 * on records, or a stored-size check around free-form JSON).
 */
type AnySchema = v.GenericSchema & {
  pipe?: { kind: string; type: string }[];
  wrapped?: AnySchema; item?: AnySchema; entries?: Record<string, AnySchema>; options?: AnySchema[];
  key?: AnySchema; value?: AnySchema; items?: AnySchema[]; rest?: AnySchema; getter?: (input: unknown) => AnySchema;
};

const lengthBounds = new Set(['max_length', 'length', 'max_bytes', 'iso_timestamp', 'iso_date_time', 'iso_date', 'uuid']);

export function unboundedPaths(schema: AnySchema, path = 'body', seen = new Set<unknown>(), sized = false): string[] {
  if (seen.has(schema)) return [];
  const pipe = flatPipe(schema);
  const actions = new Set(pipe.filter((p) => p.kind === 'validation').map((p) => p.type));
  const nowSized = sized || pipe.some((p) => isStoredSizeCheck(p));
  const inner = [...seen, schema];
  const walk = (s: AnySchema, p: string) => unboundedPaths(s, p, new Set(inner), nowSized);
  // Schemas later in a pipe (v.pipe(v.custom(...), richDocument)) validate the same value.
  const piped = (schema.pipe ?? []).slice(1).filter((p) => p.kind === 'schema').flatMap((p) => walk(p as unknown as AnySchema, path));
  return [...piped, ...ownPaths()];
  function ownPaths(): string[] {
  switch (schema.type) {
    case 'string':
      // maxChars(n) bounds a string too (to 2n code units).
      return [...actions].some((a) => lengthBounds.has(a)) || pipe.some((p) => charLimitOf(p)?.maxLength !== undefined) || nowSized ? [] : [path];
    case 'array':
      return [...(actions.has('max_length') || actions.has('length') || nowSized ? [] : [path]), ...walk(schema.item!, `${path}[]`)];
    case 'record':
      return [...(actions.has('max_entries') || nowSized ? [] : [path]), ...walk(schema.key!, `${path}{key}`), ...walk(schema.value!, `${path}{}`)];
    case 'object': case 'strict_object':
      return Object.entries(schema.entries!).flatMap(([k, s]) => walk(s, `${path}.${k}`));
    case 'loose_object':
      return [...(nowSized ? [] : [`${path}{loose}`]), ...Object.entries(schema.entries!).flatMap(([k, s]) => walk(s, `${path}.${k}`))];
    case 'optional': case 'nullable': case 'nullish': case 'exact_optional': case 'non_optional': case 'non_nullable':
      return walk(schema.wrapped!, path);
    case 'union': case 'variant':
      return schema.options!.flatMap((o) => walk(o, path));
    case 'tuple': case 'strict_tuple':
      return schema.items!.flatMap((s, i) => walk(s, `${path}[${i}]`));
    case 'lazy':
      return walk(schema.getter!(undefined), path);
    case 'unknown': case 'any':
      return nowSized ? [] : [`${path}{unknown}`];
    default:
      return [];
  }
  }
}

/** The actions of a pipe, nested pipes (v.pipe(text(100), v.url())) included. */
function flatPipe(schema: AnySchema): { kind: string; type: string }[] {
  return (schema.pipe ?? []).flatMap((p, i) => (i === 0 && p !== schema && (p as AnySchema).pipe ? flatPipe(p as AnySchema) : [p]));
}
