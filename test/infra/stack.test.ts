import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DocsServiceStack } from '../../infra/stack.ts';
import { API_STAGE_THROTTLE, NOT_FOUND_GROUP, READER_ROUTES, SSO_SERVICE_PROVIDER_ROUTES } from '../../infra/constructs/api.ts';
import { queueNames } from '../../shared/config.ts';
import { TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import { groupNames, operations } from '../../shared/http/operations.ts';
import { SERVICE_DESCRIPTION_GROUP, SERVICE_DESCRIPTION_ROUTES } from '../../shared/http/service-description.ts';

type Resource = { Type: string; Properties: Record<string, any> };

// Same feature flags as `cdk synth`; an empty bundling-stacks list makes NodejsFunction skip esbuild.
const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
const template = Template.fromStack(new DocsServiceStack(app, 'DocsServiceStack'));
const resources = template.toJSON().Resources as Record<string, Resource>;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const getAttId = (value: any): string => value['Fn::GetAtt'][0];
const functions = ofType('AWS::Lambda::Function');
/** 'docs-service group spaces' -> logical id of the spaces group's function. */
const functionByDescription = new Map(functions.map(([id, r]) => [r.Properties.Description as string, id]));

describe('HTTP API', () => {
  const routes = ofType('AWS::ApiGatewayV2::Route');

  it('has one function per group', () => {
    for (const group of groupNames) expect(functionByDescription.has(`docs-service group ${group}`), group).toBe(true);
  });

  it('routes every operation, once, to its group function', () => {
    // One route per declared operation, the service's description, the reader site's routes, the SAML service-provider routes, and the catch-all that answers unknown paths with JSON 404.
    expect(routes).toHaveLength(operations.length + SERVICE_DESCRIPTION_ROUTES.length + READER_ROUTES.length + SSO_SERVICE_PROVIDER_ROUTES.length + 1);
    for (const op of operations) {
      const routeKey = `${op.method} /v1${op.path}`;
      const matching = routes.filter(([, r]) => r.Properties.RouteKey === routeKey);
      expect(matching, routeKey).toHaveLength(1);
      const target = matching[0]![1].Properties.Target['Fn::Join'][1];
      expect(target[0]).toBe('integrations/');
      const integration = resources[target[1].Ref]!;
      expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(getAttId(integration.Properties.IntegrationUri), routeKey).toBe(functionByDescription.get(`docs-service group ${op.group}`));
    }
  });

  it('tells every function where the service secret is, never its value, and lets it read only that secret', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(1);
    const [secretId] = secrets[0]!;
    const functions = ofType('AWS::Lambda::Function').filter(([, r]) => String(r.Properties.Description ?? '').startsWith('docs-service'));
    expect(functions.length).toBeGreaterThan(groupNames.length);
    for (const [, fn] of functions) {
      const variables = fn.Properties.Environment.Variables;
      expect(variables.SERVICE_SECRET_ARN, fn.Properties.Description).toEqual({ Ref: secretId });
      // No variable holds a resolved secret value.
      expect(JSON.stringify(variables), fn.Properties.Description).not.toMatch(/resolve:secretsmanager/);
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, r]) => r.Properties.Roles.some((x: any) => x.Ref === role))
        .flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
      const reads = statements.filter((s: any) => [s.Action].flat().includes('secretsmanager:GetSecretValue'));
      expect(reads.map((s: any) => s.Resource), fn.Properties.Description).toEqual([{ Ref: secretId }]);
    }
  });

  it('routes GET /v1/openapi.json and GET /v1/docs to the group function that serves the description', () => {
    expect(SERVICE_DESCRIPTION_ROUTES.map((r) => `${r.method} /v1${r.path}`)).toEqual(['GET /v1/openapi.json', 'GET /v1/docs']);
    for (const route of SERVICE_DESCRIPTION_ROUTES) {
      const matching = routes.filter(([, r]) => r.Properties.RouteKey === `${route.method} /v1${route.path}`);
      expect(matching).toHaveLength(1);
      // No authorizer: the description is public (the group app answers it before authentication).
      expect(matching[0]![1].Properties.AuthorizationType ?? 'NONE').toBe('NONE');
      const target = matching[0]![1].Properties.Target['Fn::Join'][1];
      expect(getAttId(resources[target[1].Ref]!.Properties.IntegrationUri)).toBe(functionByDescription.get(`docs-service group ${SERVICE_DESCRIPTION_GROUP}`));
    }
  });

  it('routes the SAML service-provider endpoints (/sso/saml/...) to the sso group function', () => {
    expect(SSO_SERVICE_PROVIDER_ROUTES.map((r) => `${r.method} ${r.path}`))
      .toEqual(['GET /sso/saml/{providerId}', 'GET /sso/saml/{providerId}/start', 'POST /sso/saml/{providerId}/acs']);
    for (const route of SSO_SERVICE_PROVIDER_ROUTES) {
      const matching = routes.filter(([, r]) => r.Properties.RouteKey === `${route.method} ${route.path}`);
      expect(matching).toHaveLength(1);
      const target = matching[0]![1].Properties.Target['Fn::Join'][1];
      expect(getAttId(resources[target[1].Ref]!.Properties.IntegrationUri)).toBe(functionByDescription.get('docs-service group sso'));
    }
  });

  it('sends unknown paths to a group app, which answers JSON 404', () => {
    const catchAll = routes.filter(([, r]) => r.Properties.RouteKey === 'ANY /{proxy+}');
    expect(catchAll).toHaveLength(1);
    const target = catchAll[0]![1].Properties.Target['Fn::Join'][1];
    expect(getAttId(resources[target[1].Ref]!.Properties.IntegrationUri)).toBe(functionByDescription.get(`docs-service group ${NOT_FOUND_GROUP}`));
  });

  it('routes the reader paths (GET /s/{proxy+}) to the reader function', () => {
    expect(READER_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /s/{proxy+}']);
    const reader = functionByDescription.get('docs-service reader');
    expect(reader).toBeDefined();
    for (const route of READER_ROUTES) {
      const matching = routes.filter(([, r]) => r.Properties.RouteKey === `${route.method} ${route.path}`);
      expect(matching).toHaveLength(1);
      const target = matching[0]![1].Properties.Target['Fn::Join'][1];
      const integration = resources[target[1].Ref]!;
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(getAttId(integration.Properties.IntegrationUri)).toBe(reader);
    }
    const permissions = ofType('AWS::Lambda::Permission').map(([, r]) => r.Properties);
    expect(permissions.some((p) => getAttId(p.FunctionName) === reader && p.Principal === 'apigateway.amazonaws.com')).toBe(true);
  });

  it('gives the reader read-only access to the table and bucket, and UpdateItem on rate-limit counters only', () => {
    const role = resources[functionByDescription.get('docs-service reader')!]!.Properties.Role['Fn::GetAtt'][0];
    const policy = ofType('AWS::IAM::Policy').find(([, r]) => r.Properties.Roles.some((x: any) => x.Ref === role))!;
    const statements = policy[1].Properties.PolicyDocument.Statement as any[];
    const unconditioned = statements.filter((s) => !s.Condition).flatMap((s: any) => [s.Action].flat());
    expect(unconditioned).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 's3:GetObject*']));
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 's3:PutObject', 's3:DeleteObject*']) expect(unconditioned).not.toContain(write);
    const counters = statements.filter((s) => s.Condition);
    expect(counters).toEqual([expect.objectContaining({
      Action: 'dynamodb:UpdateItem',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
    })]);
  });

  it('throttles the default stage as the outer wall', () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    expect(stages[0]![1].Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: API_STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: API_STAGE_THROTTLE.burstLimit },
    });
  });

  it('lets API Gateway invoke each group function', () => {
    const permissions = ofType('AWS::Lambda::Permission').map(([, r]) => r.Properties);
    for (const group of groupNames) {
      const fn = functionByDescription.get(`docs-service group ${group}`);
      expect(permissions.some((p) => getAttId(p.FunctionName) === fn && p.Principal === 'apigateway.amazonaws.com'), group).toBe(true);
    }
  });
});

describe('table', () => {
  it('has TTL, point-in-time recovery, a stream and three GSIs, and is retained', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [, table] = tables[0]!;
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    expect(TTL_ATTRIBUTE).toBe('expiresAt');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = table.Properties.GlobalSecondaryIndexes as any[];
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2', 'gsi3']);
    for (const index of indexes) expect(index.Projection).toEqual({ ProjectionType: 'ALL' });
    expect((tables[0]![1] as any).DeletionPolicy).toBe('Retain');
  });
});

describe('bucket', () => {
  it('is private, encrypted, TLS-only and retained', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      },
    });
    const statements = ofType('AWS::S3::BucketPolicy').flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
    expect(statements.some((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
  });
});

describe('queues', () => {
  const queues = ofType('AWS::SQS::Queue');
  const redriveTargets = new Set(queues.flatMap(([, r]) => (r.Properties.RedrivePolicy ? [getAttId(r.Properties.RedrivePolicy.deadLetterTargetArn)] : [])));
  const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
  const failureDestinations = new Set(mappings.flatMap((m) => (m.DestinationConfig ? [getAttId(m.DestinationConfig.OnFailure.Destination)] : [])));

  it('gives every work queue its own DLQ after 3 receives, and every DLQ is used', () => {
    const workQueues = queues.filter(([id]) => !redriveTargets.has(id) && !failureDestinations.has(id));
    expect(workQueues).toHaveLength(queueNames.length);
    for (const [id, queue] of workQueues) expect(queue.Properties.RedrivePolicy?.maxReceiveCount, id).toBe(3);
    expect(redriveTargets.size).toBe(queueNames.length);
    for (const [id, queue] of queues) {
      const isDeadLetter = redriveTargets.has(id) || failureDestinations.has(id);
      if (isDeadLetter) expect(queue.Properties.MessageRetentionPeriod, id).toBe(14 * 24 * 3600);
      else expect(queue.Properties.RedrivePolicy, id).toBeDefined();
    }
  });

  it('consumes each work queue with one worker whose timeout is at most 1/6 of the visibility timeout', () => {
    const sqsMappings = mappings.filter((m) => resources[m.EventSourceArn['Fn::GetAtt']?.[0]]?.Type === 'AWS::SQS::Queue');
    expect(sqsMappings).toHaveLength(queueNames.length);
    for (const m of sqsMappings) {
      const queue = resources[getAttId(m.EventSourceArn)]!;
      const fn = resources[m.FunctionName.Ref]!;
      expect(m.BatchSize).toBe(10);
      expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Properties.Timeout);
    }
    expect(resources[functionByDescription.get('docs-service worker git')!]!.Properties.Timeout).toBe(300);
  });
});

describe('functions', () => {
  it('all run Node.js 22 on arm64 with the shared environment', () => {
    // Group functions, workers, the space-expiry worker and the reader.
    expect(functions).toHaveLength(groupNames.length + queueNames.length + 2);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Runtime, id).toBe('nodejs22.x');
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
      expect(fn.Properties.MemorySize, id).toBe(512);
      const variables = Object.keys(fn.Properties.Environment.Variables);
      expect(variables, id).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME', 'NODE_OPTIONS', 'QUEUE_URL_INTEGRATION_EVENTS', 'QUEUE_URL_JOBS']));
    }
  });

  it('grant no wildcard actions', () => {
    const statements = ofType('AWS::IAM::Policy').flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
    for (const s of statements) for (const action of [s.Action].flat()) expect(action).not.toMatch(/^\*$|:\*$/);
  });

  it('gives the space-expiry worker only stream read and send on the jobs queue', () => {
    const role = resources[functionByDescription.get('docs-service worker space-expiry')!]!.Properties.Role['Fn::GetAtt'][0];
    const policy = ofType('AWS::IAM::Policy').find(([, r]) => r.Properties.Roles.some((x: any) => x.Ref === role))!;
    const actions = policy[1].Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat());
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('s3:PutObject');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'sqs:SendMessage']));
  });
});

describe('space expiry stream', () => {
  it('only receives REMOVE events made by the DynamoDB service (TTL)', () => {
    const streams = ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => r.Properties.EventSourceArn['Fn::GetAtt']?.[1] === 'StreamArn');
    expect(streams).toHaveLength(1);
    const m = streams[0]![1].Properties;
    expect(m.FunctionName.Ref).toBe(functionByDescription.get('docs-service worker space-expiry'));
    expect(m.StartingPosition).toBe('TRIM_HORIZON');
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.BisectBatchOnFunctionError).toBe(true);
    expect(m.MaximumRetryAttempts).toBeGreaterThan(0);
    expect(m.FilterCriteria.Filters.map((f: any) => JSON.parse(f.Pattern))).toEqual([
      { eventName: ['REMOVE'], userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] } },
    ]);
  });
});

describe('outputs', () => {
  it('export the API URL, table, bucket and every queue URL', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'BucketName', 'QueueUrlGit', 'QueueUrlTranslations', 'QueueUrlIntegrationEvents', 'QueueUrlJobs']));
  });
});
