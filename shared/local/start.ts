import { prepareAwsTarget } from './aws-target.ts';
import { bootstrapLocalAdmin } from './bootstrap.ts';
import { startQueuePollers } from './queue-poller.ts';
import { sweepExpiredSpaces } from '../commands/spaces/purge.ts';
import { writeLocalStackInfo, removeLocalStackInfo } from './local-stack-file.ts';
import { config } from '../config.ts';
import { serveLocal } from './http-server.ts';
import { logger } from '../observability/logger.ts';

/**
 * `npm start`: the whole API on one local HTTP server under /v1, backed by embedded
 * emulators unless endpoint variables point elsewhere (see README).
 */
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

/** What a failed start leaves running, stopped before the process exits. */
const started: { stop(): Promise<void> }[] = [];
let target: Awaited<ReturnType<typeof prepareAwsTarget>>;
let server: Awaited<ReturnType<typeof serveLocal>>['server'];
let pollers: ReturnType<typeof startQueuePollers>;
let admin: Awaited<ReturnType<typeof bootstrapLocalAdmin>>;
try {
  target = await prepareAwsTarget();
  const emulators = target.emulators;
  if (emulators) started.push(emulators);
  process.env.PUBLIC_API_URL ??= `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  const { createLocalApp } = await import('./server.ts');
  admin = await bootstrapLocalAdmin();
  ({ server } = await serveLocal({ fetch: createLocalApp().fetch, port, hostname: host }));
  pollers = startQueuePollers();
  if (emulators) {
    const { dynamodbEndpoint, awsEndpoint } = emulators;
    writeLocalStackInfo({ dynamodbEndpoint, awsEndpoint, tableName: config.tableName, pid: process.pid });
  }
} catch (error) {
  // One line, not a stack: the usual causes (no Java, a taken port) are the user's to fix.
  const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use (set PORT)` : (error as Error).message ?? String(error);
  console.error(`npm start failed: ${reason}`);
  for (const child of started.reverse()) await child.stop().catch(() => {});
  process.exit(1);
}
// DynamoDB Local never expires items: sweep like TTL + the stream worker would.
const sweep = setInterval(() => {
  sweepExpiredSpaces().catch((error) => logger.error('sweep failed', { error: error as Error }));
}, Number(process.env.SWEEP_INTERVAL_MS ?? 60_000));

console.log(`Docs publishing service on http://${host}:${port}/v1`);
console.log(`Storage: ${target.description}`);
console.log(`Local admin user ${admin.userId}, organization ${admin.organizationId}`);
console.log(`Bearer token: ${admin.token}`);
console.log(`Try: curl -H "Authorization: Bearer ${admin.token}" http://${host}:${port}/v1/orgs`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearInterval(sweep);
  if (target.emulators) removeLocalStackInfo();
  server.close();
  await pollers.stop();
  await target.emulators?.stop();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
