/**
 * Tag attributes <-> block data. Attributes are kept in their written order so a
 * tag prints back as it was; known flags become booleans in data.
 */

const BOOLEAN_ATTRS = new Set(['lineNumbers', 'fullWidth', 'expandable', 'withFrame']);

export function attrsToData(attrs: Record<string, string>, skip: string[] = []): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attrs)) {
    if (skip.includes(key)) continue;
    data[key] = BOOLEAN_ATTRS.has(key) && (value === 'true' || value === 'false') ? value === 'true' : value;
  }
  return data;
}

/** Scalar data fields as tag attributes, minus the ones a block prints another way. */
export function dataToAttrs(data: Record<string, unknown> | undefined, skip: string[] = []): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (skip.includes(key)) continue;
    if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') attrs[key] = String(value);
  }
  return attrs;
}
