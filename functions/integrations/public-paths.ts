/**
 * The integrations' public endpoints (`urls.publicEndpoint`), under /v1, any method, no token:
 * answered by public-endpoint.ts (the integrations group's app locally, the integration
 * runtime's Lambda in AWS: infra/constructs/integration-runtime.ts).
 */
export const INTEGRATION_PUBLIC_PATHS = ['/integrations/{integrationName}/public', '/integrations/{integrationName}/public/{proxy+}'] as const;

/**
 * An integration's script on a published site (shared/reader/site-scripts.ts `scriptPath`),
 * GET, no token: answered by the integration runtime (it runs the integration), not the reader.
 */
export const PUBLISHED_SCRIPT_PATH = '/s/{siteId}/~integrations/{integrationName}/script.js';

/**
 * An integration block's render on a published page (shared/reader/integration-blocks.ts
 * `renderPath`), POST, signed by the reader: answered by the integration runtime.
 */
export const BLOCK_RENDER_PATH = '/s/{siteId}/~integrations/{integrationName}/render';
