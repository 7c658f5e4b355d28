import type { Emulators } from './emulators.ts';
import { provision } from './provision.ts';
import { resetDbClient } from '../db/client.ts';
import { resetAwsClients } from '../aws/clients.ts';

/** True when the environment names an endpoint (DynamoDB Local, LocalStack) to use. */
export function hasConfiguredEndpoint(): boolean {
  return Boolean(process.env.AWS_ENDPOINT_URL || process.env.AWS_ENDPOINT_URL_DYNAMODB || process.env.AWS_ENDPOINT_URL_SQS || process.env.AWS_ENDPOINT_URL_S3);
}

/** True when prepareAwsTarget() starts the embedded emulators (nothing configured, LOCAL_EMULATORS not off). */
export function usesEmbeddedEmulators(): boolean {
  return !hasConfiguredEndpoint() && process.env.LOCAL_EMULATORS !== 'off';
}

/**
 * Chooses what the local server talks to:
 * - nothing configured: embedded emulators on 127.0.0.1 (DATA_DIR persists them);
 * - endpoint variables: that DynamoDB Local / LocalStack;
 * - LOCAL_EMULATORS=off without endpoints: AWS itself, with the deployed stack's names.
 * Then creates the table, queues and bucket when they are absent (PROVISION=false skips).
 */
export async function prepareAwsTarget(): Promise<{ emulators?: Emulators; description: string }> {
  let emulators: Emulators | undefined;
  let description: string;
  if (hasConfiguredEndpoint()) {
    description = `endpoints from the environment (${process.env.AWS_ENDPOINT_URL ?? process.env.AWS_ENDPOINT_URL_DYNAMODB})`;
  } else if (!usesEmbeddedEmulators()) {
    description = `AWS (region ${process.env.AWS_REGION ?? 'default'})`;
  } else {
    const { startEmulators, useEmulatorEndpoints } = await import('./emulators.ts');
    emulators = await startEmulators({ dataDir: process.env.DATA_DIR || undefined });
    useEmulatorEndpoints(emulators);
    description = `embedded emulators (DynamoDB Local ${emulators.dynamodbEndpoint}, SQS/S3 ${emulators.awsEndpoint}${process.env.DATA_DIR ? `, data in ${process.env.DATA_DIR}` : ', in memory'})`;
  }
  resetDbClient();
  resetAwsClients();
  if (process.env.PROVISION !== 'false' && (emulators || hasConfiguredEndpoint())) {
    await provision({ visibilityTimeoutSeconds: 5 });
  }
  return { emulators, description };
}
