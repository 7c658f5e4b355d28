import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { correctPublicDescription } from './public-description-fixes.ts';

/**
 * Validates an answer of the service against the public description the official client
 * ships (`@gitbook/api`, spec/openapi.json, OpenAPI 3.1 = JSON Schema draft 2020-12).
 * Paths are matched as templates (`/spaces/{spaceId}` matches `/spaces/abc`), the most
 * specific template first (fewest parameters), as a router would.
 */
type JsonObject = Record<string, any>;

const require = createRequire(import.meta.url);
const description: JsonObject = correctPublicDescription(JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')));

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addFormat('emoji', true);
ajv.addFormat('icon', true);
// The whole description is one schema document, so `#/components/...` references resolve.
ajv.addSchema({ ...description, $id: 'gitbook-openapi.json' });

interface Template {
  path: string;
  pattern: RegExp;
  params: number;
}

const templates: Template[] = Object.keys(description.paths).map((path) => ({
  path,
  pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  params: (path.match(/\{/g) ?? []).length,
})).sort((a, b) => a.params - b.params);

/** The public description's path template for a concrete path (relative to /v1), if any. */
export function publicTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.path;
}

const compiled = new Map<string, ValidateFunction | null>();

function validatorFor(template: string, method: string, status: number): ValidateFunction | null | undefined {
  const operation = description.paths[template]?.[method.toLowerCase()];
  if (!operation) return undefined;
  const key = `${method} ${template} ${status}`;
  if (!compiled.has(key)) {
    const code = operation.responses?.[String(status)] ? String(status) : 'default';
    const response = operation.responses?.[code];
    // A JSON pointer does not follow $ref: start from the shared response when there is one.
    const base = response?.$ref ?? `#/${['paths', template, method.toLowerCase(), 'responses', code].map(escapePointer).join('/')}`;
    const resolved = response?.$ref ? description.components.responses[response.$ref.split('/').pop()] : response;
    const hasSchema = Boolean(resolved?.content?.['application/json']?.schema);
    compiled.set(key, hasSchema ? ajv.compile({ $ref: `gitbook-openapi.json${base}/content/application~1json/schema` }) : null);
  }
  return compiled.get(key);
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

export interface ContractResult {
  /** The public template matched, or undefined when the public interface has no such operation. */
  template?: string;
  /** Status codes the public description documents for the operation. */
  documentedStatuses: string[];
  /** Schema errors of the body (empty when valid or when nothing is documented for the status). */
  errors: string[];
}

/** Checks one answer: is its status documented, and does its JSON body match the documented schema? */
export function checkPublicContract(method: string, path: string, status: number, body: unknown): ContractResult {
  const template = publicTemplate(path.split('?')[0]!);
  if (!template) return { documentedStatuses: [], errors: [] };
  const operation = description.paths[template][method.toLowerCase()];
  const documentedStatuses = Object.keys(operation?.responses ?? {});
  const validate = validatorFor(template, method, status);
  if (!validate || validate(body)) return { template, documentedStatuses, errors: [] };
  return {
    template,
    documentedStatuses,
    errors: (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`),
  };
}
