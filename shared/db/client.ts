import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { startRoundTrip } from './trace.ts';
import { serviceClient } from '../aws/service-client.ts';

let client: DynamoDBDocumentClient | undefined;

/**
 * Module-scope document client, reused across Lambda invocations. The endpoint comes
 * from the SDK's own variables (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_DYNAMODB).
 */
export function db(): DynamoDBDocumentClient {
  if (!client) {
    // Captured by the tracer: each call is an X-Ray subsegment in AWS (a no-op locally).
    const base = serviceClient(DynamoDBClient, { region: config.region });
    base.middlewareStack.add(
      (next) => async (args) => {
        const ended = startRoundTrip();
        try {
          return await next(args);
        } finally {
          ended();
        }
      },
      { step: 'initialize', name: 'countRoundTrips' },
    );
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}

/** Drop the cached client (the local server calls this after it points the SDK at an emulator). */
export function resetDbClient(): void {
  client = undefined;
}
