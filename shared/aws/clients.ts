import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.ts';
import { serviceClient } from './service-client.ts';

let sqsClient: SQSClient | undefined;
let s3Client: S3Client | undefined;

/** True when the SDK is pointed at an emulator or LocalStack rather than AWS. */
function hasEndpointOverride(service: 'SQS' | 'S3'): boolean {
  return Boolean(process.env[`AWS_ENDPOINT_URL_${service}`] ?? process.env.AWS_ENDPOINT_URL);
}

/** SQS client; with an endpoint override it must not call the queue URL's own host. */
export function sqs(): SQSClient {
  return (sqsClient ??= serviceClient(SQSClient, { region: config.region, useQueueUrlAsEndpoint: !hasEndpointOverride('SQS') }));
}

/** S3 client; emulators and LocalStack need path-style addressing. */
export function s3(): S3Client {
  return (s3Client ??= serviceClient(S3Client, { region: config.region, forcePathStyle: hasEndpointOverride('S3') }));
}

export function resetAwsClients(): void {
  sqsClient = undefined;
  s3Client = undefined;
}
