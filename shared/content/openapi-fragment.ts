/**
 * The part of a stored OpenAPI 3.x / Swagger 2.0 document that one operation (or 3.1 webhook)
 * needs, as GitBook's markdown exports print an OpenAPI block: the document's version and info,
 * its servers and security, the operation under its path (with the path's shared parameters),
 * and only the components its local `$ref`s reach (transitively), at their own places so the
 * refs still resolve. Bounded: past MAX_FRAGMENT characters the components are left out, then
 * the fragment (undefined: the export prints the operation without it).
 */

type Obj = Record<string, unknown>;

export const MAX_FRAGMENT = 60_000;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** RFC 6901 segments of a local ref (`#/components/schemas/Pet` → components, schemas, Pet). */
function segments(ref: string): string[] | undefined {
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref.slice(2).split('/').map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

function at(doc: Obj, path: string[]): unknown {
  let node: unknown = doc;
  for (const key of path) node = (isObj(node) || Array.isArray(node)) && Object.hasOwn(node, key) ? (node as Obj)[key] : undefined;
  return node;
}

/** Sets `value` at `path` in `out`, making the objects on the way. */
function put(out: Obj, path: string[], value: unknown) {
  let node = out;
  for (const key of path.slice(0, -1)) {
    if (!isObj(node[key])) node[key] = {};
    node = node[key] as Obj;
  }
  node[path[path.length - 1]!] = value;
}

/** Every local `$ref` string under `value`. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

/** The security scheme names an operation's requirements (or the document's) use. */
function securityNames(doc: Obj, operation: Obj): string[] {
  const list = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : [];
  return list.filter(isObj).flatMap((r) => Object.keys(r));
}

/**
 * The fragment for `method` of `path` (`kind: 'path'`) or of the webhook `name` (`kind: 'webhook'`);
 * undefined when the document has no such operation or the operation alone is too large.
 */
export function operationFragment(doc: Obj, kind: 'path' | 'webhook', key: string, method: string): Obj | undefined {
  const container = kind === 'path' ? doc.paths : doc.webhooks;
  if (!isObj(container) || !Object.hasOwn(container, key)) return undefined;
  let item = container[key];
  // A path item that is itself a ref (`$ref: '#/components/pathItems/...'`): the item it names.
  if (isObj(item) && typeof item.$ref === 'string') item = at(doc, segments(item.$ref) ?? []);
  if (!isObj(item)) return undefined;
  const lower = method.toLowerCase();
  const operation = item[lower];
  if (!isObj(operation)) return undefined;

  const swagger2 = doc.swagger !== undefined;
  const head: Obj = swagger2 ? { swagger: doc.swagger } : { openapi: doc.openapi };
  if (isObj(doc.info)) head.info = { title: doc.info.title, version: doc.info.version };
  for (const field of swagger2 ? ['host', 'basePath', 'schemes', 'security'] : ['servers', 'security']) {
    if (doc[field] !== undefined) head[field] = doc[field];
  }
  const pathItem: Obj = { ...(Array.isArray(item.parameters) ? { parameters: item.parameters } : {}), ...(isObj(item.servers) || Array.isArray(item.servers) ? { servers: item.servers } : {}), [lower]: operation };
  const fragment: Obj = { ...head, [kind === 'path' ? 'paths' : 'webhooks']: { [key]: pathItem } };

  // The components reached from the operation, breadth first (a circular ref is taken once).
  const schemesAt = swagger2 ? ['securityDefinitions'] : ['components', 'securitySchemes'];
  const components = reachable(doc, [...refsIn(pathItem), ...securityNames(doc, operation).map((name) => pointer([...schemesAt, name]))]);
  const whole = { ...fragment, ...components };
  // `components` (3.x) or `definitions`/`parameters`/... (2.0) merged at the top: none of those
  // keys is in `fragment` except `paths`/`webhooks` (a ref into them stays as the doc has it).
  for (const [k, v] of Object.entries(components)) if (isObj(fragment[k]) && isObj(v)) whole[k] = { ...v, ...(fragment[k] as Obj) };
  if (JSON.stringify(whole).length <= MAX_FRAGMENT) return whole;
  return JSON.stringify(fragment).length <= MAX_FRAGMENT ? fragment : undefined;
}

/** The fragment of named schemas (an `openapi-schemas` block): `components.schemas` (or 2.0 `definitions`) and what they reach. */
export function schemasFragment(doc: Obj, names: string[]): Obj | undefined {
  const base = isObj(doc.components) && isObj(doc.components.schemas) ? ['components', 'schemas'] : ['definitions'];
  const head: Obj = doc.swagger !== undefined ? { swagger: doc.swagger } : { openapi: doc.openapi };
  if (isObj(doc.info)) head.info = { title: doc.info.title, version: doc.info.version };
  const out = reachable(doc, names.map((n) => pointer([...base, n])));
  if (Object.keys(out).length === 0) return undefined;
  const whole = { ...head, ...out };
  return JSON.stringify(whole).length <= MAX_FRAGMENT ? whole : undefined;
}

/** A local `$ref` to the value at `path` (JSON Pointer escaping). */
const pointer = (path: string[]) => `#/${path.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The values `refs` name and everything they reach through further local `$ref`s, at their places in the document. */
function reachable(doc: Obj, refs: string[]): Obj {
  const out: Obj = {};
  const seen = new Set<string>();
  const queue = [...refs];
  while (queue.length > 0) {
    const ref = queue.shift()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const path = segments(ref);
    const target = path && path.length > 0 ? at(doc, path) : undefined;
    if (target === undefined) continue;
    put(out, path!, target);
    queue.push(...refsIn(target));
  }
  return out;
}
