/**
 * Where the spec (../shared/spec/service-interface.md) and the public description of the
 * official client (`@gitbook/api` spec/openapi.json) disagree, the spec wins. Each entry
 * is one such disagreement, allowed by test/support/contract.ts and listed with its reason
 * in docs/decisions.md ("Contract exceptions"). Nothing else may differ.
 *
 * An entry matches a violation when every field it gives matches: `operation` is
 * "METHOD <public path template>", `status` the answer's status, `error` a pattern over the
 * violation message (an undocumented status, or an ajv error "<instancePath> <message>").
 */
export interface ContractException {
  operation?: string;
  status?: number;
  error?: RegExp;
  reason: string;
}

export const contractExceptions: ContractException[] = [
  {
    // Spec 2.3: `hostname` is the organization's default hostname, served as a full host name
    // (`<org>.<PUBLISHED_DOMAIN>`, or one set with PATCH); the public description caps it at
    // 32 characters, the length of a bare subdomain label. Organizations appear in many answers.
    error: /\/hostname must NOT have more than 32 characters/,
    reason: 'organization hostname is a full host name',
  },
  {
    // Spec 2.3: `defaultContent` is `{type: site, site}` "(a space or collection variant also
    // exists)"; the public description only lists the site variant.
    error: /\/defaultContent\b/,
    reason: 'organization defaultContent space and collection variants',
  },
  {
    // Spec 2.13 knows event `status` `success` "(only)"; an event waits for the integration
    // events worker as `pending`, a state the public description (success, failed) lacks.
    operation: 'GET /integrations/{integrationName}/events',
    error: /^\/items\/\d+\/status must be equal to one of the allowed values/,
    reason: 'integration event pending before dispatch',
  },
  {
    // A SAML provider created with only its label, as the public description allows, is
    // `pending` and has no identity provider URL yet; the description requires `ssoURL` (a URI)
    // on every provider, so it is an empty string until an admin sets it.
    error: /^(\/items\/\d+)?\/ssoURL must match format "uri"/,
    reason: 'pending SAML provider without ssoURL',
  },
  {
    operation: 'GET /integrations/{integrationName}/events/{eventId}',
    error: /^\/event\/status must be equal to one of the allowed values/,
    reason: 'integration event pending before dispatch',
  },
];

/**
 * Extension blocks (docs/content-format.md "Extension blocks"; docs/decisions.md): the service
 * keeps every block real documentation holds, including blocks and shapes the public document
 * model lacks. Before an answer is checked against the public description, each such block of
 * a document in the answer is replaced by a stand-in the public model has: `heading-4` … `-6`
 * by a `heading-3` with the same content (still checked), the others by a `divider`. Every
 * other block, and everything outside documents, is checked as it is.
 */
const STAND_IN_HEADING = /^heading-[4-6]$/;
const EXTENSION_BLOCKS = new Set([
  'expandable', 'updates', 'update', 'columns', 'column', 'prompt', 'if',
  'swagger-description', 'swagger-parameter', 'swagger-response',
]);

type Json = Record<string, unknown>;

function isExtension(node: Json): boolean {
  const data = (node.data ?? {}) as Json;
  if (EXTENSION_BLOCKS.has(String(node.type))) return true;
  // A swagger block holding its parts (the public one is void, without them); a table of rows and cells
  // (markdown tables, HTML tables with rich cells and cards views: the public table is a void
  // block of records).
  if (node.type === 'swagger' && node.isVoid !== true) return true;
  return node.type === 'table' && (data.format === 'html' || (Array.isArray(node.nodes) && node.nodes.length > 0));
}

/** Raw HTML (`html` blocks and inlines: HTML kept as written, with its images' refs) has no public form either. */
const RAW_HTML = 'html';

function standIn(node: Json): Json {
  if (node.object === 'inline' && node.type === RAW_HTML) return { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] };
  if (node.object !== 'block') return node;
  if (node.type === RAW_HTML) return { object: 'block', type: 'divider', key: node.key, isVoid: true, data: {} };
  if (STAND_IN_HEADING.test(String(node.type))) return { ...node, type: 'heading-3', data: {} };
  if (isExtension(node)) return { object: 'block', type: 'divider', key: node.key, isVoid: true, data: {} };
  return node;
}

function publicNodes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(publicNodes);
  if (!value || typeof value !== 'object') return value;
  const node = standIn(value as Json);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'nodes' || k === 'fragments' ? publicNodes(v) : v]));
}

/** An answer as the public model sees it: extension blocks of its documents replaced by stand-ins. */
export function publicModelView(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(publicModelView);
  if (!body || typeof body !== 'object') return body;
  const object = body as Json;
  if (object.object === 'document' && Array.isArray(object.nodes)) return { ...object, nodes: publicNodes(object.nodes) };
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, publicModelView(v)]));
}
