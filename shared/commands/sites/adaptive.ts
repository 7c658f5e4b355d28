import { badRequest } from '../../http/errors.ts';

/**
 * The adaptive (visitor attributes) schema of spec 2.12: a JSON Schema draft-07 object
 *   {$schema?, type: "object", properties: {unsigned?: {type: "object", description,
 *    properties: {<claim>: {type: "boolean", description}}, additionalProperties: false},
 *    <claim>: {type: "boolean", description}}, additionalProperties: false}
 * Anything else is refused with 400 naming the first offending place. Every claim and the
 * unsigned object carry a description, as the public description's SiteAdaptiveJSONSchema
 * requires (the spec names no rule on it).
 */
export function checkAdaptiveSchema(schema: unknown): Record<string, unknown> {
  const at = (where: string, what: string) => badRequest(`jsonSchema${where}: ${what}`);
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const onlyKeys = (x: Record<string, unknown>, allowed: string[], where: string) => {
    for (const key of Object.keys(x)) if (!allowed.includes(key)) throw at(`${where}.${key}`, 'is not an allowed field');
  };
  const claimName = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
  const checkClaim = (claim: unknown, where: string) => {
    if (!isObject(claim)) throw at(where, 'must be an object');
    onlyKeys(claim, ['type', 'description'], where);
    if (claim.type !== 'boolean') throw at(`${where}.type`, 'must be "boolean" (claims are boolean-typed)');
    if (typeof claim.description !== 'string') throw at(`${where}.description`, 'must be a string describing the claim');
  };
  const checkClaims = (props: unknown, where: string, allowUnsigned: boolean) => {
    if (!isObject(props)) throw at(where, 'must be an object');
    for (const [name, claim] of Object.entries(props)) {
      if (allowUnsigned && name === 'unsigned') continue;
      if (!claimName.test(name)) throw at(`${where}.${name}`, 'claim names must be identifiers (letters, digits, underscores)');
      checkClaim(claim, `${where}.${name}`);
    }
  };
  if (!isObject(schema)) throw at('', 'must be an object');
  onlyKeys(schema, ['$schema', 'type', 'properties', 'additionalProperties'], '');
  if (schema.$schema !== undefined && schema.$schema !== 'http://json-schema.org/draft-07/schema#') {
    throw at('.$schema', 'must be http://json-schema.org/draft-07/schema#');
  }
  if (schema.type !== 'object') throw at('.type', 'must be "object"');
  if (schema.additionalProperties !== false) throw at('.additionalProperties', 'must be false');
  checkClaims(schema.properties, '.properties', true);
  const unsigned = (schema.properties as Record<string, unknown>).unsigned;
  if (unsigned !== undefined) {
    const where = '.properties.unsigned';
    if (!isObject(unsigned)) throw at(where, 'must be an object');
    onlyKeys(unsigned, ['type', 'description', 'properties', 'additionalProperties'], where);
    if (unsigned.type !== 'object') throw at(`${where}.type`, 'must be "object"');
    if (typeof unsigned.description !== 'string') throw at(`${where}.description`, 'must be a string describing the unsigned claims');
    if (unsigned.additionalProperties !== false) throw at(`${where}.additionalProperties`, 'must be false');
    checkClaims(unsigned.properties, `${where}.properties`, false);
  }
  return schema;
}

/** Template conditions: one suggestion per boolean claim of the schema (none without a schema). */
export function templateConditions(schema: Record<string, unknown> | undefined): { description: string; condition: string }[] {
  const items: { description: string; condition: string }[] = [];
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(props)) {
    if (name === 'unsigned') continue;
    items.push({ description: `Visitors whose signed claim "${name}" is true`, condition: `visitor.claims.${name} === true` });
  }
  const unsigned = (props.unsigned as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  for (const name of Object.keys(unsigned)) {
    items.push({ description: `Visitors whose unsigned claim "${name}" is true`, condition: `visitor.claims.unsigned.${name} === true` });
  }
  return items;
}
