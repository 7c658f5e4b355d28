import { app } from './app.ts';
import { httpEntry } from '../../shared/http/lambda-entry.ts';

/** Lambda entry of the `sites` group (API Gateway HTTP API, payload v2). */
export const handler = httpEntry(app);
