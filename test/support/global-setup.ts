import type { TestProject } from 'vitest/node';
import { startEmulators, useEmulatorEndpoints } from '../../shared/local/emulators.ts';
import { provision } from '../../shared/local/provision.ts';
import { queueNames, queueUrlVariable } from '../../shared/config.ts';

/**
 * Starts the real emulators once for the whole run (DynamoDB Local and fauxqs on
 * 127.0.0.1), creates the table, queues and bucket, and hands the endpoints to the tests.
 */
export default async function setup(project: TestProject) {
  // Read when the test processes import the logger: only errors in the test output
  // (test/observability.test.ts turns INFO on for itself), and x-db-round-trips on.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  process.env.DEBUG_ROUND_TRIPS ??= '1';
  process.env.TABLE_NAME = 'docs-service-test';
  process.env.BUCKET_NAME = 'docs-service-test';
  // DynamoDB Local's JVM (this run's, and those `npm start` spawns in test/local-servers.test.ts)
  // compiles with C1 only: C2 compiling its large code base was half of its CPU over a test
  // file (the suite's largest consumer, on 2 cores), and C1 code answers the tests as fast.
  process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, '-XX:TieredStopAtLevel=1'].filter(Boolean).join(' ');
  const emulators = await startEmulators();
  useEmulatorEndpoints(emulators);
  await provision({ visibilityTimeoutSeconds: 1, prefix: 'docs-service-test' });
  const env: Record<string, string> = {
    TABLE_NAME: process.env.TABLE_NAME,
    BUCKET_NAME: process.env.BUCKET_NAME,
    AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: emulators.awsEndpoint,
    AWS_ENDPOINT_URL_S3: emulators.awsEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Fixture servers (specs, Git repositories, tunnels) listen on 127.0.0.1: the egress guard refuses it otherwise.
    EGRESS_ALLOWLIST: '127.0.0.1',
  };
  for (const name of queueNames) env[queueUrlVariable(name)] = process.env[queueUrlVariable(name)]!;
  project.provide('awsEnv', env);
  return async () => {
    await emulators.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    awsEnv: Record<string, string>;
  }
}
