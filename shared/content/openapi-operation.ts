/**
 * What the reader shows of one operation (or webhook) of a stored OpenAPI 3.x / Swagger 2.0
 * document: a plain view (strings, lists) built once per render from the processed document.
 * Only local `$ref`s (`#/...`) are followed, never a URL or a file: a spec cannot make the
 * reader fetch anything. A `$ref` already being expanded above (a circular schema) or a
 * schema deeper than MAX_SCHEMA_DEPTH is shown by its name, not expanded.
 */

export interface SchemaView {
  name?: string;
  type?: string;
  required?: boolean;
  deprecated?: boolean;
  description?: string;
  enum?: string[];
  default?: string;
  example?: string;
  /** The `$ref` name shown instead of expanding a circular (or too deep) schema. */
  circular?: string;
  /** A `$ref` outside the document (a URL or a file), shown as written: never fetched. */
  external?: string;
  properties?: SchemaView[];
  items?: SchemaView;
  /** oneOf / anyOf alternatives. */
  variants?: { kind: 'oneOf' | 'anyOf'; options: SchemaView[] };
}

export interface ContentView { mediaType: string; schema?: SchemaView; example?: string }

export interface ParameterView { name: string; in: string; required: boolean; deprecated: boolean; description?: string; schema?: SchemaView }

export interface OperationView {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  servers: string[];
  security: string[];
  parameters: ParameterView[];
  requestBody?: { description?: string; required: boolean; contents: ContentView[] };
  responses: { status: string; description?: string; contents: ContentView[] }[];
}

type Obj = Record<string, unknown>;

const MAX_SCHEMA_DEPTH = 8;
/** Properties and variants listed per schema, examples' characters: a page stays readable. */
const MAX_LISTED = 100;
const MAX_EXAMPLE = 4000;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const scalar = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

/** A local JSON pointer (`#/components/schemas/Pet`, RFC 6901 escapes); undefined for anything else. */
function pointer(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, key) ? (node as Obj)[key] : undefined;
  }
  return node;
}

/** Follows `$ref` chains; `seen` names the refs already expanded on the way here. */
function deref(doc: Obj, value: unknown, seen: Set<string>): { value: unknown; ref?: string; circular?: string; external?: string } {
  let current = value;
  let ref: string | undefined;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string'; hops++) {
    const name = current.$ref;
    if (seen.has(name) || hops > 10) return { value: undefined, circular: name };
    // An external $ref is shown as written: nothing is fetched.
    if (!name.startsWith('#')) return { value: undefined, external: name.slice(0, 2048) };
    ref = name;
    const target = pointer(doc, name);
    if (target === undefined) return { value: undefined, circular: name };
    current = target;
  }
  return { value: current, ref };
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;

function example(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > MAX_EXAMPLE ? `${text.slice(0, MAX_EXAMPLE)}…` : text;
}

function schemaView(doc: Obj, input: unknown, seen: Set<string>, depth: number): SchemaView {
  const { value, ref, circular, external } = deref(doc, input, seen);
  if (external) return { external, type: refName(external) };
  if (circular) return { circular: refName(circular), type: refName(circular) };
  if (!isObj(value)) return {};
  if (depth >= MAX_SCHEMA_DEPTH) return { circular: ref ? refName(ref) : 'object', type: ref ? refName(ref) : str(value.type) };
  const inner = ref ? new Set([...seen, ref]) : seen;
  const view: SchemaView = {};
  // allOf: one schema with every part's properties (the common composition of a base and an extension).
  const parts = [value, ...(Array.isArray(value.allOf) ? value.allOf.map((p) => deref(doc, p, inner).value).filter(isObj) : [])];
  const type = parts.map((p) => (Array.isArray(p.type) ? p.type.join(' | ') : str(p.type))).find(Boolean);
  const format = parts.map((p) => str(p.format)).find(Boolean);
  view.type = [type ?? (parts.some((p) => isObj(p.properties)) ? 'object' : undefined), format && `<${format}>`].filter(Boolean).join(' ') || undefined;
  if (!view.type && ref) view.type = refName(ref);
  const description = parts.map((p) => str(p.description)).find(Boolean);
  if (description) view.description = description;
  if (value.deprecated === true) view.deprecated = true;
  if (Array.isArray(value.enum)) view.enum = value.enum.slice(0, MAX_LISTED).map((e) => scalar(e) ?? 'null');
  if (value.default !== undefined) view.default = scalar(value.default);
  const ex = value.example ?? (Array.isArray(value.examples) ? value.examples[0] : undefined);
  if (ex !== undefined) view.example = example(ex);
  const required = new Set(parts.flatMap((p) => (Array.isArray(p.required) ? p.required.filter((r): r is string => typeof r === 'string') : [])));
  const properties = parts.flatMap((p) => (isObj(p.properties) ? Object.entries(p.properties) : [])).slice(0, MAX_LISTED);
  if (properties.length > 0) {
    view.properties = properties.map(([name, schema]) => ({ ...schemaView(doc, schema, inner, depth + 1), name, ...(required.has(name) ? { required: true } : {}) }));
  }
  if (value.items !== undefined) view.items = schemaView(doc, value.items, inner, depth + 1);
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const options = value[kind];
    if (Array.isArray(options) && options.length > 0) {
      view.variants = { kind, options: options.slice(0, MAX_LISTED).map((o) => schemaView(doc, o, inner, depth + 1)) };
      break;
    }
  }
  return view;
}

/** A media type's schema and first example (OpenAPI 3 `content` entry). */
function contentView(doc: Obj, mediaType: string, entry: unknown): ContentView {
  const { value } = deref(doc, entry, new Set());
  if (!isObj(value)) return { mediaType };
  const examples = isObj(value.examples) ? Object.values(value.examples).map((e) => deref(doc, e, new Set()).value) : [];
  const first = examples.find(isObj);
  const ex = value.example ?? first?.value;
  return {
    mediaType,
    ...(value.schema !== undefined ? { schema: schemaView(doc, value.schema, new Set(), 0) } : {}),
    ...(ex !== undefined ? { example: example(ex) } : {}),
  };
}

const contents = (doc: Obj, content: unknown): ContentView[] =>
  isObj(content) ? Object.entries(content).slice(0, MAX_LISTED).map(([type, entry]) => contentView(doc, type, entry)) : [];

function servers(doc: Obj, pathItem: Obj, operation: Obj): string[] {
  const list = [operation.servers, pathItem.servers, doc.servers].find((s) => Array.isArray(s) && s.length > 0) as unknown[] | undefined;
  if (list) return list.map((s) => (isObj(s) ? str(s.url) : undefined)).filter((u): u is string => !!u);
  // Swagger 2.0: scheme, host and basePath.
  if (typeof doc.host === 'string') {
    const scheme = Array.isArray(doc.schemes) && typeof doc.schemes[0] === 'string' ? doc.schemes[0] : 'https';
    return [`${scheme}://${doc.host}${str(doc.basePath) ?? ''}`];
  }
  return [];
}

function security(doc: Obj, operation: Obj): string[] {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : [];
  const schemes = (isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : isObj(doc.securityDefinitions) ? doc.securityDefinitions : {}) as Obj;
  return requirements.filter(isObj).flatMap((req) => Object.keys(req)).map((name) => {
    const scheme = deref(doc, schemes[name], new Set()).value;
    if (!isObj(scheme)) return name;
    const kind = [str(scheme.type), str(scheme.scheme), scheme.in && scheme.name ? `${String(scheme.name)} in ${String(scheme.in)}` : undefined].filter(Boolean).join(', ');
    return kind ? `${name} (${kind})` : name;
  });
}

/** The view of `method` on `pathItem` (a path or a 3.1 webhook); undefined when the document has no such operation. */
function view(doc: Obj, pathItem: unknown, method: string, path: string): OperationView | undefined {
  const item = deref(doc, pathItem, new Set()).value;
  if (!isObj(item)) return undefined;
  const operation = item[method.toLowerCase()];
  if (!isObj(operation)) return undefined;
  const swagger2 = doc.swagger !== undefined;
  // Path-level parameters apply unless the operation redefines the same name and location.
  const params = [...(Array.isArray(operation.parameters) ? operation.parameters : []), ...(Array.isArray(item.parameters) ? item.parameters : [])]
    .map((p) => deref(doc, p, new Set()).value).filter(isObj);
  const unique = params.filter((p, i) => params.findIndex((q) => q.name === p.name && q.in === p.in) === i);
  const body = unique.find((p) => p.in === 'body');
  const formData = unique.filter((p) => p.in === 'formData');
  const parameters = unique.filter((p) => p.in !== 'body' && p.in !== 'formData').slice(0, MAX_LISTED).map((p): ParameterView => ({
    name: String(p.name ?? ''), in: String(p.in ?? ''), required: p.required === true || p.in === 'path', deprecated: p.deprecated === true,
    ...(str(p.description) ? { description: str(p.description) } : {}),
    // Swagger 2.0 parameters carry type/format/enum themselves.
    schema: schemaView(doc, p.schema ?? (swagger2 ? p : isObj(p.content) ? Object.values(p.content).map((c) => (isObj(c) ? c.schema : undefined))[0] : undefined), new Set(), 0),
  }));
  const consumes = (Array.isArray(operation.consumes) ? operation.consumes : Array.isArray(doc.consumes) ? doc.consumes : ['application/json']) as string[];
  const produces = (Array.isArray(operation.produces) ? operation.produces : Array.isArray(doc.produces) ? doc.produces : ['application/json']) as string[];
  let requestBody: OperationView['requestBody'];
  const rb = deref(doc, operation.requestBody, new Set()).value;
  if (isObj(rb)) {
    requestBody = { required: rb.required === true, contents: contents(doc, rb.content), ...(str(rb.description) ? { description: str(rb.description) } : {}) };
  } else if (body) {
    requestBody = { required: body.required === true, contents: [{ mediaType: String(consumes[0]), schema: schemaView(doc, body.schema, new Set(), 0) }], ...(str(body.description) ? { description: str(body.description) } : {}) };
  } else if (formData.length > 0) {
    const properties = formData.map((p) => ({ ...schemaView(doc, p, new Set(), 1), name: String(p.name ?? ''), ...(p.required === true ? { required: true } : {}) }));
    requestBody = { required: formData.some((p) => p.required === true), contents: [{ mediaType: 'multipart/form-data', schema: { type: 'object', properties } }] };
  }
  const responses = isObj(operation.responses) ? Object.entries(operation.responses).slice(0, MAX_LISTED).map(([status, r]) => {
    const response = deref(doc, r, new Set()).value;
    if (!isObj(response)) return { status, contents: [] };
    const described = str(response.description) ? { description: str(response.description) } : {};
    if (response.content !== undefined) return { status, ...described, contents: contents(doc, response.content) };
    // Swagger 2.0: one schema and examples by media type.
    const schema = response.schema !== undefined ? schemaView(doc, response.schema, new Set(), 0) : undefined;
    const examples = isObj(response.examples) ? Object.entries(response.examples) : [];
    const mediaType = examples[0]?.[0] ?? String(produces[0]);
    return {
      status, ...described,
      contents: schema || examples.length > 0 ? [{ mediaType, ...(schema ? { schema } : {}), ...(examples[0] ? { example: example(examples[0][1]) } : {}) }] : [],
    };
  }) : [];
  return {
    method: method.toUpperCase(), path,
    ...(str(operation.summary) ? { summary: str(operation.summary) } : {}),
    ...(str(operation.description) ? { description: str(operation.description) } : {}),
    deprecated: operation.deprecated === true,
    servers: servers(doc, item, operation), security: security(doc, operation),
    parameters, ...(requestBody ? { requestBody } : {}), responses,
  };
}

/** The operation `method path` of a document, or undefined. */
export function operationView(doc: Obj, path: string, method: string): OperationView | undefined {
  const paths = isObj(doc.paths) ? doc.paths : {};
  return Object.hasOwn(paths, path) ? view(doc, paths[path], method, path) : undefined;
}

/** The webhook `name` (OpenAPI 3.1 `webhooks`) answered with `method`, or undefined. */
export function webhookView(doc: Obj, name: string, method: string): OperationView | undefined {
  const hooks = isObj(doc.webhooks) ? doc.webhooks : {};
  return Object.hasOwn(hooks, name) ? view(doc, hooks[name], method, name) : undefined;
}

/** Named schemas of a document (`components.schemas`, or Swagger 2.0 `definitions`), in the order asked; unknown names are left out. */
export function schemasView(doc: Obj, names: string[]): { name: string; schema: SchemaView }[] {
  const base = isObj(doc.components) && isObj(doc.components.schemas) ? '#/components/schemas/' : '#/definitions/';
  return names.slice(0, MAX_LISTED).flatMap((name) => {
    const ref = `${base}${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return pointer(doc, ref) === undefined ? [] : [{ name, schema: schemaView(doc, { $ref: ref }, new Set(), 0) }];
  });
}
