import { App } from 'aws-cdk-lib';
import { DocsServiceStack } from './stack.ts';

/** CDK entry (cdk.json): one env-agnostic stack, so `cdk synth` needs no credentials or lookups. */
const app = new App();
new DocsServiceStack(app, 'DocsServiceStack', {
  description: 'Documentation publishing service: HTTP API, workers, DynamoDB table, SQS queues, S3 bucket',
});
app.synth();
