import { constants as osConstants } from 'node:os';
import { resolve } from 'node:path';
import { prepareAwsTarget, usesEmbeddedEmulators } from './aws-target.ts';
import { bootstrapLocalAdmin } from './bootstrap.ts';
import { startQueuePollers } from './queue-poller.ts';
import { sweepExpiredSpaces } from '../commands/spaces/purge.ts';
import { writeLocalStackInfo, removeLocalStackInfo } from './local-stack-file.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { config } from '../config.ts';
import { serveLocal } from './http-server.ts';
import { errorBody } from '../http/errors.ts';
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
let server: Awaited<ReturnType<typeof serveLocal>>['server'] | undefined;
let pollers: ReturnType<typeof startQueuePollers>;
let admin: Awaited<ReturnType<typeof bootstrapLocalAdmin>>;
let url: string;
/** The server's address as callers type it (a wildcard host is reached as localhost). */
const origin = (listenPort: number) => `http://${host === '0.0.0.0' ? 'localhost' : host}:${listenPort}`;
/** Set while this server has a record in .data/local-stacks/ (and the DATA_DIR lock): both go when the process does. */
let release: (() => void) | undefined;
const dataDir = usesEmbeddedEmulators() && process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : null;
// Synchronous, so it runs however the process ends (process.exit, an uncaught error, a signal
// handled below); only SIGKILL skips it, and readers skip the record of a dead process.
process.on('exit', () => release?.());
// A signal's default action ends the process without 'exit' handlers: DynamoDB Local (killed by
// one, shared/local/emulators.ts) would outlive a Ctrl-C during start-up. Until the server is
// up, a signal exits at once (128 + its number, as the shell reports it); then `shutdown` below.
let onSignal: (signal: NodeJS.Signals) => void = (signal) => process.exit(128 + (osConstants.signals[signal] ?? 0));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => onSignal(signal));
/** The service's app once the storage it needs is up; until then requests get a 503 (`starting`). */
let app: Parameters<typeof serveLocal>[0]['fetch'] | undefined;
try {
  if (dataDir) release = lockDataDir(dataDir); // before the emulators open its files
  // The port first: a taken port fails the start at once, not after the emulators and the
  // table are up (half a minute with a DATA_DIR on a busy machine).
  let address;
  ({ server, address } = await serveLocal({ fetch: (request, env) => (app ? app(request, env) : starting()), port, hostname: host }));
  url = origin(address.port);
  target = await prepareAwsTarget();
  const emulators = target.emulators;
  if (emulators) started.push(emulators);
  process.env.PUBLIC_API_URL ??= url;
  const { createLocalApp } = await import('./server.ts');
  admin = await bootstrapLocalAdmin();
  app = createLocalApp().fetch;
  pollers = startQueuePollers();
  if (emulators) {
    const { dynamodbEndpoint, awsEndpoint } = emulators;
    const unlock = release;
    release = () => {
      removeLocalStackInfo();
      unlock?.();
    };
    writeLocalStackInfo({
      pid: process.pid, url, port: address.port, dataDir,
      dynamodbEndpoint, awsEndpoint, tableName: config.tableName,
      authCacheSeconds: config.authCacheMs / 1000, startedAt: new Date().toISOString(),
    });
  }
} catch (error) {
  // One line, not a stack: the usual causes (no Java, a taken port, a DATA_DIR in use) are the user's to fix.
  const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use (set PORT)` : (error as Error).message ?? String(error);
  console.error(`npm start failed: ${reason}`);
  server?.close();
  for (const child of started.reverse()) await child.stop().catch(() => {});
  process.exit(1);
}
// DynamoDB Local never expires items: sweep like TTL + the stream worker would.
const sweep = setInterval(() => {
  sweepExpiredSpaces().catch((error) => logger.error('sweep failed', { error: error as Error }));
}, Number(process.env.SWEEP_INTERVAL_MS ?? 60_000));

console.log(`Docs publishing service on ${url}/v1`);
console.log(`Storage: ${target.description}`);
console.log(`Local admin user ${admin.userId}, organization ${admin.organizationId}`);
console.log(`Bearer token: ${admin.token}`);
console.log(`Try: curl -H "Authorization: Bearer ${admin.token}" ${url}/v1/orgs`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearInterval(sweep);
  // First: from now on the admin CLI no longer picks this server (the DATA_DIR lock stays until exit).
  removeLocalStackInfo();
  server?.close();
  await pollers.stop();
  await target.emulators?.stop();
  process.exit(0);
}
onSignal = () => void shutdown(); // SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed)

/** What the server answers while it starts: the service's JSON error, and when to try again. */
function starting(): Response {
  return Response.json(errorBody(503, 'The service is starting; retry in a moment'), { status: 503, headers: { 'Retry-After': '1' } });
}
