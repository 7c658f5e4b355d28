/**
 * Test files share their worker process (vitest.config.ts: `isolate: false`), so modules load
 * once per worker instead of once per file. This setup file runs before each test file: what a
 * file may change process-wide is put back when it ends, so the next file starts as it would
 * in a process of its own: its environment (a lowered rate limit, another bucket, an egress
 * allowlist), the service's clock and the translator are put back, the caches kept under that
 * clock or for that bucket are emptied, and the next file gets queues of its own.
 */
import { afterAll } from 'vitest';
// Modules that default the environment when first imported (outside Lambda, metrics off and
// X-Ray in manual mode) are imported before the snapshot: their defaults are part of what every
// file starts with, not a change of the first file to take back.
import '../../shared/observability/metrics.ts';
import '../../shared/observability/xray-mode.ts';
import { resetClock } from '../../shared/clock.ts';
import { forgetAllRecords } from '../../shared/http/auth-cache.ts';
import { forgetBlobCaches } from '../../shared/content/blobs.ts';
import { setDefaultTranslator } from '../../shared/translate/translator.ts';
import { forgetOwnQueues } from './api.ts';

const environment = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  resetClock();
  // Kept under the clock this file moved, or for the bucket it named.
  forgetAllRecords();
  forgetBlobCaches();
  setDefaultTranslator(undefined);
  forgetOwnQueues();
});
