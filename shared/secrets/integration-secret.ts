import { hkdfSync } from 'node:crypto';
import { configuredSecret, hasConfiguredSecret, loadedOnce, serviceSecret } from './service-secret.ts';
import { SECRET_ROOTS } from './roots.ts';

const variables = SECRET_ROOTS.integrations;

/**
 * The secret the integrations' keys are derived from (keys.ts: webhook signing, the sealing
 * of integration secrets, the reader's signed render calls), apart from the service secret:
 * the integration runtime runs third-party scripts, so its function is given this secret
 * only and cannot derive the service's other keys (visitor tokens, share links, reader
 * cookies, cursors). Where it comes from, in this order:
 * - `INTEGRATION_SECRET_ARN` (the CDK stack sets it): read from Secrets Manager at run time.
 * - `INTEGRATION_SECRET`: an operator-provided value (at least 32 characters).
 * - outside a Lambda: derived from the service secret (HKDF, label `integration-root-v1`,
 *   base64url), so a
 *   local run or a single-process deployment configures one secret.
 * Inside a Lambda the first is required: a function given only this secret has no service
 * secret to derive it from.
 */
const configured = loadedOnce(loadIntegrationSecret);
/** Per loaded service secret, so a reset of that one (tests) derives again. */
const derivedFrom = new WeakMap<Buffer, Buffer>();

export async function integrationSecret(): Promise<Buffer> {
  if (!hasConfiguredSecret(variables) && !process.env.AWS_LAMBDA_FUNCTION_NAME) {
    const service = await serviceSecret();
    let root = derivedFrom.get(service);
    // As text, like a configured secret: INTEGRATION_SECRET set to this value gives the same keys.
    if (!root) derivedFrom.set(service, (root = Buffer.from(Buffer.from(hkdfSync('sha256', service, 'docs-service', 'integration-root-v1:', 32)).toString('base64url'), 'utf8')));
    return root;
  }
  return configured.get();
}

/** Forget the loaded secret (tests that change the environment). */
export function resetIntegrationSecret(): void {
  configured.reset();
}

async function loadIntegrationSecret(): Promise<Buffer> {
  const configured = configuredSecret(variables);
  if (configured) return configured;
  throw new Error(`${variables.arnVariable} is not set: the integration secret must come from Secrets Manager`);
}
