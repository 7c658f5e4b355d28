import { prepareAwsTarget } from './aws-target.ts';
import { bootstrapLocalAdmin } from './bootstrap.ts';
import { startQueuePollers } from './queue-poller.ts';
import { sweepExpiredSpaces } from '../commands/purge-space.ts';
import { writeLocalStackInfo, removeLocalStackInfo } from './local-stack-file.ts';
import { config } from '../config.ts';
import { serveLocal } from './http-server.ts';

/**
 * `npm start`: the whole API on one local HTTP server under /v1, backed by embedded
 * emulators unless endpoint variables point elsewhere (see README).
 */
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

const target = await prepareAwsTarget();
const { dynamodbEndpoint = '', awsEndpoint = '' } = target.emulators ?? {};
process.env.PUBLIC_API_URL ??= `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
const { createLocalApp } = await import('./server.ts');
const admin = await bootstrapLocalAdmin();
const { server } = await serveLocal({ fetch: createLocalApp().fetch, port, hostname: host });
const pollers = startQueuePollers();
if (target.emulators) {
  writeLocalStackInfo({ dynamodbEndpoint, awsEndpoint, tableName: config.tableName, pid: process.pid });
}
// DynamoDB Local never expires items: sweep like TTL + the stream worker would.
const sweep = setInterval(() => {
  sweepExpiredSpaces().catch((error) => console.error(`sweep failed: ${String(error)}`));
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
