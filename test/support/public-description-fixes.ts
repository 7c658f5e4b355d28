/**
 * Corrections of evident slips in the public description (`@gitbook/api` spec/openapi.json),
 * applied before validating against it. Each one states the intent the description plainly
 * has; they are listed in docs/decisions.md ("Contract exceptions").
 */
type JsonObject = Record<string, any>;

export function correctPublicDescription(description: JsonObject): JsonObject {
  const schemas = description.components.schemas;
  // Document's "Empty" variant (a page without content, as pages are listed) is written as
  // an object with no properties at all, which no page can be. Its intent: neither
  // `markdown` nor `document`.
  const empty = schemas.Document?.oneOf?.find((s: JsonObject) => s.title === 'Empty');
  if (empty?.additionalProperties === false) {
    delete empty.additionalProperties;
    empty.not = { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] };
  }
  // PlainObject (an integration block's `props`, among others) has no `type: object`, so in the
  // oneOf of its own values a string matches both `string` and PlainObject and never validates:
  // an integration block with any string prop (all of GitBook's) would be refused. Its intent:
  // an object.
  if (schemas.PlainObject && schemas.PlainObject.type === undefined) schemas.PlainObject.type = 'object';
  // OpenAPISpecContent's `filesystem` is typed `object` (TypeScript's, which arrays are), yet
  // it is GitBook's openapi-parser Filesystem, the list of file entries its renderer reads
  // from this very answer. Its intent: an array of objects.
  const filesystem = schemas.OpenAPISpecContent?.properties?.filesystem;
  if (filesystem?.type === 'object') {
    filesystem.type = 'array';
    filesystem.items = { type: 'object' };
  }
  return description;
}
