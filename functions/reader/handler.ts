import { app } from './app.ts';
import { httpEntry } from '../../shared/http/lambda-entry.ts';

/** Text types the reader answers (markdown included) go out as text, everything else base64. */
export const isContentTypeBinary = (contentType: string) =>
  !/^(text\/|application\/(json|xml|javascript)|image\/svg\+xml)/i.test(contentType);

/** Lambda entry of the reader site (API Gateway HTTP API, payload v2). */
export const handler = httpEntry(app, { isContentTypeBinary });
