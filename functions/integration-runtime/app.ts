import { Hono } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { errorResponse } from '../../shared/http/errors.ts';
import { createGroupApp } from '../../shared/http/group-app.ts';
import { publicEndpoint } from '../integrations/public-endpoint.ts';
import { publishedScriptRoutes } from './published-script.ts';
import { blockRenderRoutes } from './block-render.ts';

/**
 * What runs integrations on a request, no token: their public endpoints
 * (functions/integrations/public-endpoint.ts) and their scripts on published sites
 * (published-script.ts) and integration blocks' renders (block-render.ts), with the shared observation and error handling.
 */
export const app = new Hono<AppEnv>();
// Published-site scripts live under /s (the reader's paths), the public endpoints under /v1.
app.route('/', publishedScriptRoutes);
app.route('/', blockRenderRoutes);
app.route('/', createGroupApp([], publicEndpoint));
app.onError((error, c) => errorResponse(c, error));
