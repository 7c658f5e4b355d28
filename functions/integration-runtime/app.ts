import { createGroupApp } from '../../shared/http/group-app.ts';
import { publicEndpoint } from '../integrations/public-endpoint.ts';

/** The integrations' public endpoints (no token; functions/integrations/public-endpoint.ts) with the shared observation and error handling. */
export const app = createGroupApp([], publicEndpoint);
