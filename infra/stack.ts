import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { queueNames } from '../shared/config.ts';
import { DocsApi } from './constructs/api.ts';
import { DocsQueues } from './constructs/queues.ts';
import { DocsStorage } from './constructs/storage.ts';
import { DocsTable } from './constructs/table.ts';
import { DocsWorkers } from './constructs/workers.ts';

/** 'integration-events' -> 'IntegrationEvents', for output ids. */
const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

/** The whole service in one env-agnostic stack: table, bucket, queues, HTTP API and workers. */
export class DocsServiceStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const { table } = new DocsTable(this, 'Data');
    const { bucket } = new DocsStorage(this, 'Storage');
    const { queues, deadLetterQueues } = new DocsQueues(this, 'Queues');
    // Signing key of the visitor-claims JWT (ping); generated once, never in the template.
    const visitorClaims = new Secret(this, 'VisitorClaimsSecret', {
      description: 'HS256 key of the visitor-claims JWT returned by POST /orgs/{organizationId}/ping',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    const api = new DocsApi(this, 'Api', {
      table, bucket, queues,
      // A dynamic reference, resolved by CloudFormation at deploy time.
      environment: { VISITOR_CLAIMS_SECRET: visitorClaims.secretValue.unsafeUnwrap() },
    });
    const workers = new DocsWorkers(this, 'Workers', {
      table, bucket, queues,
      environment: { PUBLIC_API_URL: api.httpApi.apiEndpoint },
    });

    new CfnOutput(this, 'ApiUrl', { value: api.httpApi.apiEndpoint, description: 'Base URL of the API (PUBLIC_API_URL); routes live under /v1' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    for (const name of queueNames) {
      new CfnOutput(this, `QueueUrl${pascal(name)}`, { value: queues[name].queueUrl });
      new CfnOutput(this, `DeadLetterQueueUrl${pascal(name)}`, { value: deadLetterQueues[name].queueUrl });
    }
    new CfnOutput(this, 'SpaceExpiryFailuresQueueUrl', { value: workers.spaceExpiryFailures.queueUrl });
  }
}
