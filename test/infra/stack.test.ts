import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, NestedStack, Stack, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DEPLOYMENT_PARAMETER_PATTERNS, DocsServiceStack } from '../../infra/stack.ts';
import { ACCESS_LOG_FORMAT, API_STAGE_THROTTLE, NOT_FOUND_GROUP, READER_ROUTES, SSO_SERVICE_PROVIDER_ROUTES } from '../../infra/constructs/api.ts';
import { ALARM_THRESHOLDS } from '../../infra/constructs/monitoring.ts';
import { workerConsumption } from '../../infra/constructs/queues.ts';
import { bucketPrefixes, checkPartitions, groupAccess, readerAccess, translationProviderGrant, workerAccess, type FunctionAccess } from '../../infra/constructs/access.ts';
import * as v from 'valibot';
import { jobSchema, queueOfJob } from '../../shared/jobs/jobs.ts';
import { HEALTH_GROUP, HEALTH_ROUTES } from '../../shared/http/health.ts';
import { queueNames, queueUrlVariable } from '../../shared/config.ts';
import { ENTITY_TYPE, TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { groupNames, operations } from '../../functions/catalogue.ts';
import { SERVICE_DESCRIPTION_GROUP, SERVICE_DESCRIPTION_ROUTES } from '../../shared/http/service-description.ts';
import { BLOCK_RENDER_PATH, INTEGRATION_PUBLIC_PATHS, PUBLISHED_SCRIPT_PATH } from '../../functions/integrations/public-paths.ts';
import { SECRET_ROOTS, type SecretRoot } from '../../shared/secrets/roots.ts';
import { GIT_WORKER_NODE_OPTIONS, LAMBDA_ESBUILD_TARGET, LAMBDA_NODE_MAJOR, LAMBDA_NODE_OPTIONS } from '../../infra/lambda-node.ts';

type Resource = { Type: string; Properties: Record<string, any> };

// Same feature flags as `cdk synth`; an empty bundling-stacks list makes NodejsFunction skip esbuild.
const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
const stack = new DocsServiceStack(app, 'DocsServiceStack');
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const getAttId = (value: any): string => value['Fn::GetAtt'][0];

/**
 * The stack's template and its nested stacks' (the routes, infra/constructs/api-routes.ts), each
 * with the values the stack passes to its parameters (a cross-stack reference becomes one).
 */
const templates = [
  { path: stack.node.path, resources, parameters: {} as Record<string, any> },
  ...stack.node.findAll().filter(NestedStack.isNestedStack).map((nested) => ({
    path: nested.node.path,
    resources: Template.fromStack(nested).toJSON().Resources as Record<string, Resource>,
    parameters: resources[stack.resolve((nested.nestedStackResource as CfnResource).logicalId)]!.Properties.Parameters as Record<string, any>,
  })),
];
const nestedTemplates = templates.slice(1);
/** A value of a template as the stack sees it: a parameter reference becomes what the stack passes. */
const inStack = (value: any, parameters: Record<string, any>) => (value?.Ref !== undefined && value.Ref in parameters ? parameters[value.Ref] : value);
/** Every route, in whichever template it is, with its integration (same template) and the API it belongs to and the function it invokes as the stack names them. */
const allRoutes = templates.flatMap(({ resources: own, parameters }) => Object.values(own).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route').map((route) => {
  const target = route.Properties.Target['Fn::Join'][1];
  const integration = own[target[1].Ref]!;
  return {
    routeKey: route.Properties.RouteKey as string, route, target, integration,
    apiId: inStack(route.Properties.ApiId, parameters), integrationApiId: inStack(integration.Properties.ApiId, parameters),
    functionId: getAttId(inStack(integration.Properties.IntegrationUri, parameters)),
  };
}));
/** Lambda permissions of every template, FunctionName and SourceArn as the stack names them. */
const allPermissions = templates.flatMap(({ resources: own, parameters }) => Object.values(own).filter((r) => r.Type === 'AWS::Lambda::Permission')
  .map((r): Record<string, any> => ({ ...r.Properties, FunctionName: inStack(r.Properties.FunctionName, parameters), SourceArn: JSON.parse(JSON.stringify(r.Properties.SourceArn ?? null), (_k, v) => inStack(v, parameters)) })));

const functions = ofType('AWS::Lambda::Function');
/** 'docs-service group spaces' -> logical id of the spaces group's function. */
const functionByDescription = new Map(functions.map(([id, r]) => [r.Properties.Description as string, id]));

/** Each function's declared access (infra/constructs/access.ts), by description. */
const accessByDescription = new Map<string, FunctionAccess>([
  ...groupNames.map((g) => [`docs-service group ${g}`, groupAccess[g]] as const),
  ['docs-service reader', readerAccess],
  ...Object.entries(workerAccess).map(([w, access]) => [`docs-service worker ${w}`, access] as const),
]);

/** The policy statements of a function's role. */
const statementsOf = (fn: Resource): any[] => ofType('AWS::IAM::Policy')
  .filter(([, r]) => r.Properties.Roles.some((x: any) => x.Ref === fn.Properties.Role['Fn::GetAtt'][0]))
  .flatMap(([, r]) => r.Properties.PolicyDocument.Statement);

/** The stack's secret of each root (its logical id starts with the secret's construct id). */
const secretIds: Record<SecretRoot, string> = {
  service: ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('ServiceSecret'))![0],
  integrations: ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('IntegrationSecret'))![0],
};

/** Readable names of the resources grants name: table, bucket, secret:<root>, queue:<name>. */
const resourceNames = new Map<string, string>([
  [ofType('AWS::DynamoDB::Table')[0]![0], 'table'],
  [ofType('AWS::S3::Bucket')[0]![0], 'bucket'],
  ...Object.entries(secretIds).map(([root, id]) => [id, `secret:${root}`] as [string, string]),
  ...Object.entries(template.toJSON().Outputs as Record<string, any>).flatMap(([key, output]) => {
    const queue = /^(DeadLetter)?QueueUrl(\w+)$|^(SpaceExpiryFailures)QueueUrl$/.exec(key);
    if (!queue) return [];
    const name = (queue[2] ?? queue[3]!).replace(/[A-Z]/g, (c, i: number) => `${i ? '-' : ''}${c.toLowerCase()}`);
    return [[output.Value.Ref as string, `queue:${name}${queue[1] ? '-dlq' : ''}`] as [string, string]];
  }),
]);
const nameOf = (value: any): string => {
  if (typeof value === 'string') return value;
  if (value.Ref) return resourceNames.get(value.Ref) ?? value.Ref;
  if (value['Fn::GetAtt']) {
    const [id, attribute] = value['Fn::GetAtt'];
    return `${resourceNames.get(id) ?? id}${attribute === 'Arn' ? '' : `.${attribute === 'StreamArn' ? 'stream' : attribute}`}`;
  }
  if (value['Fn::Join']) return value['Fn::Join'][1].map(nameOf).join(value['Fn::Join'][0]);
  return JSON.stringify(value);
};
/** A function's grants as sorted `action resource [condition]` lines. */
const grantsOf = (description: string): string[] => statementsOf(resources[functionByDescription.get(description)!]!).flatMap((s) => {
  expect(s.Effect).toBe('Allow');
  const condition = s.Condition ? ` if ${JSON.stringify(s.Condition)}` : '';
  return [s.Action].flat().flatMap((action: string) => [s.Resource].flat().map((r) => `${action} ${nameOf(r)}${condition}`));
}).sort();

describe('template size', () => {
  // CloudFormation refuses a stack (nested ones too) of more than 500 resources, or a template of
  // more than 200 parameters, at deploy time (synth only warns). One route per operation was
  // most of the stack's resources (README, Deploying): they are in a nested stack, and these
  // fail while there is still room to act (another nested stack, e.g. one per group).
  it('keeps the stack under 300 of the 500 resources CloudFormation allows, its routes in a nested stack', () => {
    expect(Object.keys(resources).length).toBeLessThan(300);
    expect(ofType('AWS::ApiGatewayV2::Route')).toEqual([]);
  });

  it('keeps each nested template under 450 resources and 200 parameters', () => {
    expect(nestedTemplates.map((t) => t.path)).toEqual(['DocsServiceStack/Api/Routes']);
    for (const nested of nestedTemplates) {
      expect(Object.keys(nested.resources).length, nested.path).toBeLessThan(450);
      expect(Object.keys(nested.parameters).length, nested.path).toBeLessThan(200);
    }
  });
});

describe('HTTP API', () => {
  const routes = allRoutes;
  const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];

  it('has one function per group', () => {
    for (const group of groupNames) expect(functionByDescription.has(`docs-service group ${group}`), group).toBe(true);
  });

  it('routes every operation, once, to its group function', () => {
    // One route per declared operation, the service's description, the health check, the reader site's routes, the SAML service-provider routes, and the catch-all that answers unknown paths with JSON 404.
    // ... and the integrations' public endpoints, published-site scripts and integration blocks' renders (to the integration runtime, checked below).
    expect(routes).toHaveLength(operations.length + SERVICE_DESCRIPTION_ROUTES.length + HEALTH_ROUTES.length + READER_ROUTES.length + SSO_SERVICE_PROVIDER_ROUTES.length + INTEGRATION_PUBLIC_PATHS.length + 1 + 1 + 1);
    // Every route and its integration are on the stack's one API, without an authorizer.
    for (const r of routes) {
      expect([r.apiId, r.integrationApiId], r.routeKey).toEqual([{ Ref: apiId }, { Ref: apiId }]);
      expect(r.route.Properties.AuthorizationType, r.routeKey).toBe('NONE');
    }
    const runtimeRoutes = [...INTEGRATION_PUBLIC_PATHS.map((path) => `ANY /v1${path}`), `GET ${PUBLISHED_SCRIPT_PATH}`, `POST ${BLOCK_RENDER_PATH}`];
    for (const path of runtimeRoutes) {
      const matching = routes.filter((r) => r.routeKey === path);
      expect(matching, path).toHaveLength(1);
      expect(matching[0]!.functionId, path).toBe(functionByDescription.get('docs-service worker integration-events'));
    }
    for (const op of operations) {
      const routeKey = `${op.method} /v1${op.path}`;
      const matching = routes.filter((r) => r.routeKey === routeKey);
      expect(matching, routeKey).toHaveLength(1);
      const { target, integration, functionId } = matching[0]!;
      expect(target[0]).toBe('integrations/');
      expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(functionId, routeKey).toBe(functionByDescription.get(`docs-service group ${op.group}`));
    }
  });

  it('tells every function where the secrets it reads are, never their values, and lets it read only those secrets', () => {
    expect(ofType('AWS::SecretsManager::Secret')).toHaveLength(2);
    const functions = ofType('AWS::Lambda::Function').filter(([, r]) => String(r.Properties.Description ?? '').startsWith('docs-service'));
    expect(functions.length).toBeGreaterThan(groupNames.length);
    for (const [, fn] of functions) {
      const variables = fn.Properties.Environment.Variables;
      const roots = accessByDescription.get(fn.Properties.Description)!.secrets;
      for (const [root, { arnVariable }] of Object.entries(SECRET_ROOTS) as [SecretRoot, (typeof SECRET_ROOTS)[SecretRoot]][]) {
        expect(variables[arnVariable], `${fn.Properties.Description} ${arnVariable}`).toEqual(roots.includes(root) ? { Ref: secretIds[root] } : undefined);
      }
      // No variable holds a resolved secret value.
      expect(JSON.stringify(variables), fn.Properties.Description).not.toMatch(/resolve:secretsmanager/);
      const reads = statementsOf(fn).filter((s: any) => [s.Action].flat().includes('secretsmanager:GetSecretValue'));
      const readable = reads.flatMap((s: any) => [s.Resource].flat().map((r: any) => r.Ref as string));
      expect(readable.sort(), fn.Properties.Description).toEqual(roots.map((root) => secretIds[root]).sort());
    }
    // The integration runtime runs third-party scripts: it holds the integration secret only.
    const runtime = functions.filter(([, r]) => r.Properties.Environment.Variables.INTEGRATION_SECRET_ARN && !r.Properties.Environment.Variables.SERVICE_SECRET_ARN);
    expect(runtime.map(([, r]) => r.Properties.Description)).toEqual(['docs-service worker integration-events']);
  });

  it('routes GET /v1/openapi.json and GET /v1/docs to the group function that serves the description', () => {
    expect(SERVICE_DESCRIPTION_ROUTES.map((r) => `${r.method} /v1${r.path}`)).toEqual(['GET /v1/openapi.json', 'GET /v1/docs']);
    for (const route of SERVICE_DESCRIPTION_ROUTES) {
      const matching = routes.filter((r) => r.routeKey === `${route.method} /v1${route.path}`);
      expect(matching).toHaveLength(1);
      // No authorizer: the description is public (the group app answers it before authentication).
      expect(matching[0]!.route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
      expect(matching[0]!.functionId).toBe(functionByDescription.get(`docs-service group ${SERVICE_DESCRIPTION_GROUP}`));
    }
  });

  it('routes GET /v1/health, without an authorizer, to the group function that answers it before authentication', () => {
    expect(HEALTH_ROUTES.map((r) => `${r.method} /v1${r.path}`)).toEqual(['GET /v1/health']);
    const matching = routes.filter((r) => r.routeKey === 'GET /v1/health');
    expect(matching).toHaveLength(1);
    expect(matching[0]!.route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    expect(matching[0]!.functionId).toBe(functionByDescription.get(`docs-service group ${HEALTH_GROUP}`));
  });

  it('routes the SAML service-provider endpoints (/sso/saml/...) to the sso group function', () => {
    expect(SSO_SERVICE_PROVIDER_ROUTES.map((r) => `${r.method} ${r.path}`))
      .toEqual(['GET /sso/saml/{providerId}', 'GET /sso/saml/{providerId}/start', 'POST /sso/saml/{providerId}/acs']);
    for (const route of SSO_SERVICE_PROVIDER_ROUTES) {
      const matching = routes.filter((r) => r.routeKey === `${route.method} ${route.path}`);
      expect(matching).toHaveLength(1);
      expect(matching[0]!.functionId).toBe(functionByDescription.get('docs-service group sso'));
    }
  });

  it('sends unknown paths to a group app, which answers JSON 404', () => {
    const catchAll = routes.filter((r) => r.routeKey === 'ANY /{proxy+}');
    expect(catchAll).toHaveLength(1);
    expect(catchAll[0]!.functionId).toBe(functionByDescription.get(`docs-service group ${NOT_FOUND_GROUP}`));
  });

  it('routes the reader paths (GET /s/{proxy+}) to the reader function', () => {
    expect(READER_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /s/{proxy+}']);
    const reader = functionByDescription.get('docs-service reader');
    expect(reader).toBeDefined();
    for (const route of READER_ROUTES) {
      const matching = routes.filter((r) => r.routeKey === `${route.method} ${route.path}`);
      expect(matching).toHaveLength(1);
      expect(matching[0]!.integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(matching[0]!.functionId).toBe(reader);
    }
    const permissions = allPermissions;
    expect(permissions.some((p) => getAttId(p.FunctionName) === reader && p.Principal === 'apigateway.amazonaws.com')).toBe(true);
  });

  it('gives the reader read-only access to the table, UpdateItem on rate-limit counters only, and no content writes but search indexes', () => {
    const statements = statementsOf(resources[functionByDescription.get('docs-service reader')!]!);
    const unconditioned = statements.filter((s) => !s.Condition).flatMap((s: any) => [s.Action].flat());
    expect(unconditioned).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 's3:GetObject']));
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 's3:DeleteObject']) expect(unconditioned).not.toContain(write);
    // Search indexes, and answers too large for Lambda (shared/http/oversized-answers.ts).
    expect(grantsOf('docs-service reader').filter((g) => g.startsWith('s3:PutObject'))).toEqual(['s3:PutObject bucket/answers/*', 's3:PutObject bucket/indexes/*']);
    const counters = statements.filter((s) => s.Condition);
    expect(counters).toEqual([expect.objectContaining({
      Action: 'dynamodb:UpdateItem',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
    })]);
  });

  it('throttles the default stage as the outer wall, rate and burst being stack parameters (500/s, 1,000 by default)', () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    expect(stages[0]![1].Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: { Ref: 'ApiThrottleRateLimit' }, ThrottlingBurstLimit: { Ref: 'ApiThrottleBurstLimit' } },
    });
    const parameters = template.toJSON().Parameters;
    expect(parameters.ApiThrottleRateLimit).toMatchObject({ Type: 'Number', Default: API_STAGE_THROTTLE.rateLimit });
    expect(parameters.ApiThrottleBurstLimit).toMatchObject({ Type: 'Number', Default: API_STAGE_THROTTLE.burstLimit });
    expect([API_STAGE_THROTTLE.rateLimit, API_STAGE_THROTTLE.burstLimit]).toEqual([500, 1000]);
  });

  it('creates the stage after the nested routes, so its first deployment holds every route (autoDeploy deploys later changes)', () => {
    const [, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]! as [string, Resource & { DependsOn?: string[] }];
    const routeStacks = ofType('AWS::CloudFormation::Stack').map(([id]) => id);
    expect(routeStacks.length).toBeGreaterThan(0);
    expect(routeStacks).toHaveLength(nestedTemplates.length);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(routeStacks));
  });

  it('writes one JSON access line per request to its own log group, without query strings or headers', () => {
    const settings = ofType('AWS::ApiGatewayV2::Stage')[0]![1].Properties.AccessLogSettings;
    const logGroup = resources[getAttId(settings.DestinationArn)]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties.RetentionInDays).toBe(30);
    const format = JSON.parse(settings.Format);
    expect(format).toEqual(ACCESS_LOG_FORMAT);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', routeKey: '$context.routeKey', responseLatency: '$context.responseLatency' });
    // $context.path has no query string; no header variable is logged (tokens travel in both).
    expect(settings.Format).not.toMatch(/header|querystring|authorizer/i);
  });

  it('lets API Gateway invoke each group function', () => {
    const permissions = allPermissions;
    for (const group of groupNames) {
      const fn = functionByDescription.get(`docs-service group ${group}`);
      expect(permissions.some((p) => getAttId(p.FunctionName) === fn && p.Principal === 'apigateway.amazonaws.com'), group).toBe(true);
    }
  });

  it('gives each routed function one invoke permission for the whole API (scopePermissionToRoute: false), not one per route', () => {
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    const routed = [...new Set(allRoutes.map((r) => r.functionId))];
    expect(routed.length).toBeGreaterThan(groupNames.length);
    for (const fn of routed) {
      const matching = allPermissions.filter((p) => getAttId(p.FunctionName) === fn && p.Principal === 'apigateway.amazonaws.com');
      expect(matching, fn).toHaveLength(1);
      const arn = matching[0]!.SourceArn['Fn::Join'][1];
      expect(arn.slice(-2), fn).toEqual([{ Ref: apiId }, '/*/*/*']);
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

  it('refuses deletion while deletion protection is on', () => {
    expect(ofType('AWS::DynamoDB::Table')[0]![1].Properties.DeletionProtectionEnabled).toBe(true);
  });
});

describe('deployment parameters', () => {
  it('name the public app URL and the published domain, with no local default, and every function is told both', () => {
    const parameters = template.toJSON().Parameters;
    for (const name of ['PublicAppUrl', 'PublishedDomain'] as const) {
      expect(parameters[name], name).toMatchObject({ Type: 'String', AllowedPattern: DEPLOYMENT_PARAMETER_PATTERNS[name] });
      expect(parameters[name].Default, name).toBeUndefined();
    }
    const accepts = (name: keyof typeof DEPLOYMENT_PARAMETER_PATTERNS, value: string) => new RegExp(DEPLOYMENT_PARAMETER_PATTERNS[name]).test(value);
    expect(['https://app.example.com', 'https://example.com/app', 'http://10.0.0.1:3000'].every((v) => accepts('PublicAppUrl', v))).toBe(true);
    expect(['', 'app.example.com', 'https://app.example.com?x=1', 'https://a b'].some((v) => accepts('PublicAppUrl', v))).toBe(false);
    expect(['docs.example.com', 'example.io'].every((v) => accepts('PublishedDomain', v))).toBe(true);
    expect(['', 'localhost', 'Docs.Example.com', '.example.com', 'https://docs.example.com', 'example.com.'].some((v) => accepts('PublishedDomain', v))).toBe(false);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Environment.Variables, id).toMatchObject({ PUBLIC_APP_URL: { Ref: 'PublicAppUrl' }, PUBLISHED_DOMAIN: { Ref: 'PublishedDomain' } });
    }
  });
});

describe('service and integration secrets', () => {
  it('are generated and retained like the table: sealed values and SSO user ids stored there need them', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets.map(([id]) => id).sort()).toEqual(Object.values(secretIds).sort());
    for (const [, secret] of secrets) {
      expect(secret).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.Properties.GenerateSecretString).toBeDefined();
    }
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

describe('bucket lifecycle', () => {
  it('aborts incomplete multipart uploads after a day, expires stored oversized answers after a day, and nothing else (every other key is permanent)', () => {
    const [, bucket] = ofType('AWS::S3::Bucket')[0]!;
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'abort-incomplete-multipart-uploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
      { Id: 'expire-stored-answers', Status: 'Enabled', Prefix: 'answers/', ExpirationInDays: 1 },
    ]);
  });
});

describe('cdk.json', () => {
  it('turns CLI telemetry and version reporting off', () => {
    const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
    expect(cdkJson.context['cli-telemetry']).toBe(false);
    expect(cdkJson.versionReporting).toBe(false);
    expect(ofType('AWS::CDK::Metadata')).toHaveLength(0);
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
      expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Properties.Timeout);
    }
    expect(resources[functionByDescription.get('docs-service worker git')!]!.Properties.Timeout).toBe(300);
  });

  it('caps each consumer\'s concurrency, and gives a Git job a whole invocation to itself', () => {
    for (const name of queueNames) {
      const fn = functionByDescription.get(`docs-service worker ${name}`);
      const sqs = mappings.filter((m) => m.FunctionName.Ref === fn);
      expect(sqs, name).toHaveLength(1);
      expect(sqs[0]!.BatchSize, name).toBe(workerConsumption[name].batchSize);
      expect(sqs[0]!.ScalingConfig, name).toEqual({ MaximumConcurrency: workerConsumption[name].maxConcurrency });
      expect(workerConsumption[name].maxConcurrency, name).toBeGreaterThanOrEqual(2);
    }
    expect(workerConsumption.git.batchSize).toBe(1);
    for (const name of ['translations', 'integration-events', 'jobs'] as const) expect(workerConsumption[name].batchSize).toBe(10);
  });
});

describe('functions', () => {
  it('the container images and the project itself run the Lambdas\' Node line, bundled for its target', () => {
    const root = join(import.meta.dirname, '../..');
    const dockerfiles = readdirSync(join(root, 'infra')).filter((f) => f.endsWith('.Dockerfile'));
    expect(dockerfiles.length).toBeGreaterThanOrEqual(3);
    for (const file of dockerfiles) {
      const text = readFileSync(join(root, 'infra', file), 'utf8');
      const bases = [...text.matchAll(/^FROM public\.ecr\.aws\/lambda\/nodejs:(\S+)/gm)].map((m) => m[1]);
      const targets = [...text.matchAll(/--target=(\S+)/g)].map((m) => m[1]);
      expect(bases, file).toEqual([String(LAMBDA_NODE_MAJOR), String(LAMBDA_NODE_MAJOR)]); // build stage, then runtime stage
      expect(targets, file).toEqual([LAMBDA_ESBUILD_TARGET]);
      // Node's options as the function's configuration sets them (a container started outside Lambda runs with these).
      const own = file === 'git-worker.Dockerfile' ? GIT_WORKER_NODE_OPTIONS : [];
      expect(text.match(/^ENV NODE_OPTIONS="?([^"\n]*)"?$/m)?.[1], file).toBe([...LAMBDA_NODE_OPTIONS, ...own].join(' '));
    }
    // The Node every script and test runs on (package.json's node devDependency).
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: { node: string } };
    expect(pkg.devDependencies.node.split('.')[0]).toBe(String(LAMBDA_NODE_MAJOR));
  });

  it(`all run Node.js ${LAMBDA_NODE_MAJOR} on arm64, told only about the resources they may use`, () => {
    // Group functions, workers, the space-expiry worker and the reader.
    expect(functions).toHaveLength(groupNames.length + queueNames.length + 2);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
      if (['docs-service worker integration-events', 'docs-service worker images'].includes(fn.Properties.Description)) {
        // The integration runtime: a container image (the Lambdas' Node and workerd, infra/integration-runtime.Dockerfile);
        // the images worker: a container image (the Lambdas' Node and sharp's arm64 libvips, infra/image-worker.Dockerfile).
        expect(fn.Properties.PackageType, id).toBe('Image');
        expect(fn.Properties.MemorySize, id).toBe(2048);
      } else if (fn.Properties.Description === 'docs-service worker git') {
        // The git worker: a container image (the Lambdas' Node and the git CLI, infra/git-worker.Dockerfile), one whole vCPU.
        expect(fn.Properties.PackageType, id).toBe('Image');
        expect(fn.Properties.MemorySize, id).toBe(1769);
      } else {
        expect(fn.Properties.Runtime, id).toBe(`nodejs${LAMBDA_NODE_MAJOR}.x`);
        expect(fn.Properties.MemorySize, id).toBe(512);
      }
      const variables = Object.keys(fn.Properties.Environment.Variables);
      const access = accessByDescription.get(fn.Properties.Description)!;
      expect(variables.filter((v) => v.startsWith('QUEUE_URL_')).sort(), id).toEqual(access.queues.map(queueUrlVariable).sort());
      expect(variables.includes('TABLE_NAME'), id).toBe(access.table !== 'none');
      expect(variables.includes('BUCKET_NAME'), id).toBe(Object.values(access.bucket).some((p) => Array.isArray(p) && p.length > 0));
      // Node's options: every function's, and the git worker's own after them (one V8 helper thread on its one vCPU).
      const own = fn.Properties.Description === 'docs-service worker git' ? GIT_WORKER_NODE_OPTIONS : [];
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBe([...LAMBDA_NODE_OPTIONS, ...own].join(' '));
    }
  });

  it('all trace with X-Ray (active tracing) and may write their segments', () => {
    for (const [id, fn] of functions) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const actions = ofType('AWS::IAM::Policy')
        .filter(([, r]) => r.Properties.Roles.some((x: any) => x.Ref === role))
        .flatMap(([, r]) => r.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
      expect(actions, id).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
    }
  });

  it('grant no wildcard actions', () => {
    const statements = ofType('AWS::IAM::Policy').flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
    for (const s of statements) for (const action of [s.Action].flat()) expect(action).not.toMatch(/^\*$|:\*$/);
  });

  it('gives the space-expiry worker only stream read and send on the jobs queue (and its failure queue)', () => {
    expect(grantsOf('docs-service worker space-expiry').filter((g) => !g.startsWith('xray:'))).toEqual([
      'dynamodb:DescribeStream table.stream', 'dynamodb:GetRecords table.stream', 'dynamodb:GetShardIterator table.stream', 'dynamodb:ListStreams *',
      ...['queue:jobs', 'queue:space-expiry-failures'].flatMap((q) => ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a) => `${a} ${q}`)),
    ].sort());
  });
});

describe('least privilege (infra/constructs/access.ts)', () => {
  /** What a declaration must turn into, written out here independently of the code that grants it. */
  const expectedGrants = (access: FunctionAccess): string[] => {
    const grants = ['xray:PutTelemetryRecords *', 'xray:PutTraceSegments *'];
    const reads = ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'Query'];
    const writes = ['BatchWriteItem', 'DeleteItem', 'PutItem', 'UpdateItem'];
    const on = (patterns: readonly string[]) => ` if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":${JSON.stringify(patterns)}}}`;
    const { partitions } = access;
    if (access.table !== 'none' && !partitions) {
      for (const a of reads) grants.push(`dynamodb:${a} table`, `dynamodb:${a} table/index/*`);
      if (access.table === 'readwrite') for (const a of writes) grants.push(`dynamodb:${a} table`);
    }
    if (access.table !== 'none' && partitions) {
      if (partitions.read.length) for (const a of reads) grants.push(`dynamodb:${a} table${on(partitions.read)}`);
      for (const [index, patterns] of Object.entries(partitions.indexes)) grants.push(`dynamodb:Query table/index/${index}${on(patterns!)}`);
      if (partitions.write.length) for (const a of writes) grants.push(`dynamodb:${a} table${on(partitions.write)}`);
    }
    if (access.scansTable) grants.push('dynamodb:Scan table');
    if ((access.table !== 'readwrite' || partitions) && access.rateLimitCounters) grants.push(`dynamodb:UpdateItem table${on(['RATE#*'])}`);
    for (const q of access.queues) for (const a of ['GetQueueAttributes', 'GetQueueUrl', 'SendMessage']) grants.push(`sqs:${a} queue:${q}`);
    for (const p of access.bucket.read ?? []) grants.push(`s3:GetObject bucket/${p}/*`);
    for (const p of access.bucket.write ?? []) grants.push(`s3:PutObject bucket/${p}/*`);
    for (const p of access.bucket.delete ?? []) grants.push(`s3:DeleteObject bucket/${p}/*`);
    if (access.bucket.probesMissingKeys) grants.push('s3:ListBucket bucket');
    else if (access.bucket.delete?.length) grants.push(`s3:ListBucket bucket if {"StringLike":{"s3:prefix":[${access.bucket.delete.map((p) => `"${p}/*"`).join(',')}]}}`);
    for (const root of access.secrets) grants.push(`secretsmanager:DescribeSecret secret:${root}`, `secretsmanager:GetSecretValue secret:${root}`);
    return grants;
  };
  /** Grants that come with how a function is fed, not with what it does: consuming its queue, reading the stream. */
  const feedGrants = (description: string): string[] => {
    const worker = /^docs-service worker (.+)$/.exec(description)?.[1];
    if (worker === 'space-expiry') {
      return ['dynamodb:DescribeStream table.stream', 'dynamodb:GetRecords table.stream', 'dynamodb:GetShardIterator table.stream', 'dynamodb:ListStreams *',
        ...['GetQueueAttributes', 'GetQueueUrl', 'SendMessage'].map((a) => `sqs:${a} queue:space-expiry-failures`)];
    }
    if (worker) return ['ChangeMessageVisibility', 'DeleteMessage', 'GetQueueAttributes', 'GetQueueUrl', 'ReceiveMessage'].map((a) => `sqs:${a} queue:${worker}`);
    return [];
  };

  it('declares every function of the stack', () => {
    expect([...functionByDescription.keys()].filter((d) => d.startsWith('docs-service')).sort()).toEqual([...accessByDescription.keys()].sort());
    expect(functions).toHaveLength(accessByDescription.size);
  });

  it('grants each function exactly what its declaration names: table actions, queues, bucket prefixes, secret', () => {
    expect(bucketPrefixes).toEqual({ blobs: 'blobs/', indexes: 'indexes/', spaces: 'spaces/', answers: 'answers/' });
    // The synthesized default: the pseudo translator needs no AWS service.
    expect(process.env.TRANSLATION_PROVIDER ?? 'pseudo').toBe('pseudo');
    for (const [description, access] of accessByDescription) {
      // Duplicates would hide a grant given twice in two statements.
      expect(grantsOf(description), description).toEqual([...new Set([...expectedGrants(access), ...feedGrants(description)])].sort());
    }
  });

  it('lets no function but the git group send to the git queue, and the sso group send to none', () => {
    const senders = (queue: string) => [...accessByDescription.keys()].filter((d) => grantsOf(d).includes(`sqs:SendMessage queue:${queue}`));
    expect(senders('git')).toEqual(['docs-service group git']);
    expect(senders('translations')).toEqual(['docs-service group translations']);
    // Installations (integrations), merges, templates and translation runs (space_content_updated), Git syncs (space_gitsync_*).
    expect(senders('integration-events').sort()).toEqual([
      'docs-service group change-requests', 'docs-service group content', 'docs-service group integrations', 'docs-service worker git', 'docs-service worker translations',
    ]);
    // The jobs worker: the blob-sweep job that continues a run its invocation did not finish.
    expect(senders('jobs').sort()).toEqual(['docs-service group conversations', 'docs-service group openapi', 'docs-service worker jobs', 'docs-service worker space-expiry']);
    expect(grantsOf('docs-service group sso').filter((g) => g.startsWith('sqs:'))).toEqual([]);
  });

  it('lets only the jobs worker delete objects, only under spaces/ (purges) and blobs/ (the blob sweep), and nothing overwrite outside blobs/, indexes/ and answers/ (HTTP functions only)', () => {
    const all = [...accessByDescription.keys()].flatMap((d) => grantsOf(d).map((g) => [d, g] as const));
    expect(all.filter(([, g]) => g.startsWith('s3:DeleteObject'))).toEqual([
      ['docs-service worker jobs', 's3:DeleteObject bucket/blobs/*'],
      ['docs-service worker jobs', 's3:DeleteObject bucket/spaces/*'],
    ]);
    expect(all.filter(([d, g]) => g.startsWith('s3:ListBucket') && d === 'docs-service worker jobs').map(([, g]) => g))
      .toEqual(['s3:ListBucket bucket if {"StringLike":{"s3:prefix":["spaces/*","blobs/*"]}}']);
    for (const [d, g] of all.filter(([, g]) => g.startsWith('s3:PutObject'))) expect(g, d).toMatch(/^s3:PutObject bucket\/(blobs|indexes|answers)\/\*$/);
    // Stored answers: every HTTP function (each group and the reader), no worker.
    expect(all.filter(([, g]) => g === 's3:PutObject bucket/answers/*').map(([d]) => d).sort())
      .toEqual([...accessByDescription.keys()].filter((d) => d.startsWith('docs-service group') || d === 'docs-service reader').sort());
    for (const [d, g] of all.filter(([, g]) => g.startsWith('s3:'))) expect(g, d).not.toMatch(/bucket\/\*|s3:\w+\*/);
  });

  it('lets the integration runtime, which runs third-party scripts, touch only its partitions: no table action without a LeadingKeys condition', () => {
    const runtime = 'docs-service worker integration-events';
    const table = grantsOf(runtime).filter((g) => g.startsWith('dynamodb:'));
    // Every read, query and write is conditioned; nothing reaches the whole table or every index.
    for (const grant of table) expect(grant).toMatch(/ if \{"ForAllValues:StringLike":\{"dynamodb:LeadingKeys":\[[^\]]+\]\}\}$/);
    expect(table.filter((g) => g.includes('table/index/*') || g.startsWith('dynamodb:Scan'))).toEqual([]);
    const patternsOf = (action: string, resource: string) => new Set(table.filter((g) => g.startsWith(`dynamodb:${action} ${resource} if`))
      .flatMap((g) => JSON.parse(g.slice(g.indexOf(' if ') + 4))['ForAllValues:StringLike']['dynamodb:LeadingKeys'] as string[]));
    // Exactly the declared prefixes, written out here: integrations (records, installations, events, renders, site scripts), sites (structure, read only), tokens it mints.
    for (const action of ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem']) expect([...patternsOf(action, 'table')].sort(), action).toEqual(['INTEGRATION#*', 'SITE#*']);
    for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem']) expect([...patternsOf(action, 'table')].sort(), action).toEqual(['INSTALLATIONTOKEN#*', 'INTEGRATION#*']);
    expect([...patternsOf('UpdateItem', 'table')].sort()).toEqual(['INSTALLATIONTOKEN#*', 'INTEGRATION#*', 'RATE#*']);
    // One index query: an organization's installations (published-site scripts).
    expect(table.filter((g) => g.includes('table/index/'))).toEqual(['dynamodb:Query table/index/gsi1 if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["ORG#*#INSTALLATIONS"]}}']);
    const { partitions } = workerAccess['integration-events'];
    expect(partitions).toEqual({ read: ['INTEGRATION#*', 'SITE#*'], write: ['INTEGRATION#*', 'INSTALLATIONTOKEN#*'], indexes: { gsi1: ['ORG#*#INSTALLATIONS'] } });
  });

  it('refuses partitions IAM could not hold to: with a Scan (no leading key), or writes of a read-only function', () => {
    const scoped = { ...workerAccess['integration-events'] };
    expect(() => checkPartitions(scoped)).not.toThrow();
    expect(() => checkPartitions({ ...scoped, scansTable: true })).toThrow(/scans the table/);
    expect(() => checkPartitions({ ...scoped, table: 'read' })).toThrow(/read-only/);
    expect(() => checkPartitions({ ...scoped, table: 'read', partitions: { ...scoped.partitions!, write: [] } })).not.toThrow();
  });

  it('lets only the jobs worker Scan the table (the blob sweep\'s mark), on the table alone', () => {
    const scans = [...accessByDescription.keys()].flatMap((d) => grantsOf(d).filter((g) => g.startsWith('dynamodb:Scan')).map((g) => [d, g]));
    expect(scans).toEqual([['docs-service worker jobs', 'dynamodb:Scan table']]);
  });

  it('matches the code: a function may send to a queue if and only if its bundle enqueues a job of that queue', async () => {
    const { build } = await import('esbuild');
    const entryOf = (d: string) => d.replace(/^docs-service (group |worker )?/, (_m, kind?: string) => (kind === 'worker ' ? 'functions/workers/' : 'functions/')) + '/handler.ts';
    for (const [description, access] of accessByDescription) {
      const out = await build({ entryPoints: [entryOf(description)], bundle: true, write: false, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
      const code = out.outputFiles[0]!.text;
      // esbuild prints every object literal the same way: `kind: "git-sync"` is an enqueue call site (the schema uses v.literal).
      const sent = new Set(Object.entries(queueOfJob).filter(([kind]) => code.includes(`kind: "${kind}"`)).map(([, queue]) => queue));
      expect([...sent].sort(), description).toEqual([...access.queues].sort());
      if (access.table === 'none') expect(code, description).not.toMatch(/@aws-sdk\/(lib|client)-dynamodb/);
      if (access.table === 'read') expect(code, description).not.toMatch(/new (PutCommand|DeleteCommand|TransactWriteCommand|BatchWriteCommand)\d*\(/);
      if (access.secrets.length === 0) expect(code, description).not.toContain('GetSecretValueCommand');
    }
  }, 120_000);

  it('grants a translation provider only what it calls: nothing for pseudo, TranslateText, or InvokeModel on the one Bedrock model', () => {
    const stack = new Stack();
    const resolved = (provider: string, model = 'anthropic.claude-3-5-haiku-20241022-v1:0') => {
      const statement = translationProviderGrant(provider, model);
      return statement && stack.resolve(statement.toStatementJson());
    };
    expect(resolved('pseudo')).toBeUndefined();
    expect(resolved('amazon-translate')).toEqual({ Action: 'translate:TranslateText', Effect: 'Allow', Resource: '*' });
    expect(resolved('bedrock')).toEqual({
      Action: 'bedrock:InvokeModel', Effect: 'Allow',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':bedrock:*::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0']] },
    });
    const profile = resolved('bedrock', 'us.anthropic.claude-3-5-haiku-20241022-v1:0');
    expect(profile.Resource).toHaveLength(2);
    expect(JSON.stringify(profile.Resource)).toMatch(/foundation-model\/anthropic\.claude.*inference-profile\/us\.anthropic\.claude/);
    expect(() => translationProviderGrant('deepl', 'x')).toThrow(/TRANSLATION_PROVIDER/);
  });
});

describe('blob sweep schedule', () => {
  it('sends the blob-sweep job to the jobs queue once a day, and only that rule may send there from EventBridge', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 day)');
    expect(rule.Properties.State).toBe('ENABLED');
    expect(rule.Properties.Targets).toHaveLength(1);
    const [target] = rule.Properties.Targets;
    expect(nameOf(target.Arn)).toBe('queue:jobs');
    expect(v.parse(jobSchema, JSON.parse(target.Input))).toEqual({ kind: 'blob-sweep' });
    expect(queueOfJob['blob-sweep']).toBe('jobs');
    const fromEvents = ofType('AWS::SQS::QueuePolicy').flatMap(([, r]) => r.Properties.PolicyDocument.Statement
      .filter((st: any) => st.Principal?.Service === 'events.amazonaws.com')
      .map((st: any) => ({ queues: r.Properties.Queues.map(nameOf), action: st.Action, source: st.Condition?.ArnEquals?.['aws:SourceArn'] })));
    expect(fromEvents).toEqual([{ queues: ['queue:jobs'], action: expect.arrayContaining(['sqs:SendMessage']), source: { 'Fn::GetAtt': [ruleId, 'Arn'] } }]);
  });
});

describe('container images', () => {
  /** Every file of a staged build context, relative to it. */
  const filesUnder = (dir: string, prefix = ''): string[] => readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]));

  it('build from a context of what the Dockerfiles copy and nothing else (test output, docs or infra code never change an image)', () => {
    const manifest = JSON.parse(readFileSync(join(app.outdir, 'DocsServiceStack.assets.json'), 'utf8'));
    const images = Object.values(manifest.dockerImages) as { source: { directory: string; dockerFile: string; platform: string } }[];
    expect(images.map((i) => i.source.dockerFile).sort()).toEqual(['infra/git-worker.Dockerfile', 'infra/image-worker.Dockerfile', 'infra/integration-runtime.Dockerfile']);
    for (const { source } of images) {
      expect(source.platform).toBe('linux/arm64');
      const files = filesUnder(join(app.outdir, source.directory));
      const outside = files.filter((f) => !/^(shared|functions)\//.test(f) && !['package.json', 'package-lock.json', 'tsconfig.json', source.dockerFile].includes(f));
      expect(outside, source.dockerFile).toEqual([]);
      expect(files.filter((f) => f.endsWith('.test.ts')), source.dockerFile).toEqual([]);
      for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', source.dockerFile, 'shared/config.ts', 'functions/catalogue.ts']) expect(files, `${source.dockerFile}: ${needed}`).toContain(needed);
    }
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
      {
        eventName: ['REMOVE'], userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
        // Spaces only: the TTL removals of rate-limit counters, SAML requests and tokens never invoke it.
        dynamodb: { OldImage: { [ENTITY_TYPE]: { S: [spaceEntity.type] } } },
      },
    ]);
    expect([ENTITY_TYPE, spaceEntity.type]).toEqual(['entityType', 'space']);
  });
});

describe('outputs', () => {
  it('export the API URL, table, bucket and every queue URL', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'BucketName', 'QueueUrlGit', 'QueueUrlTranslations', 'QueueUrlIntegrationEvents', 'QueueUrlJobs']));
  });

  it('export the alarm topic and the dashboard', () => {
    const outputs = template.toJSON().Outputs;
    const topics = ofType('AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    expect(outputs.AlarmTopicArn.Value).toEqual({ Ref: topics[0]![0] });
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect(outputs.DashboardName.Value).toEqual({ Ref: dashboards[0]![0] });
  });
});

describe('alarms', () => {
  const alarms = ofType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
  const topicId = ofType('AWS::SNS::Topic')[0]![0];
  const queues = ofType('AWS::SQS::Queue');
  const deadLetterIds = new Set(queues.flatMap(([, r]) => (r.Properties.RedrivePolicy ? [getAttId(r.Properties.RedrivePolicy.deadLetterTargetArn)] : [])));
  deadLetterIds.add(getAttId(ofType('AWS::Lambda::EventSourceMapping').find(([, r]) => r.Properties.DestinationConfig)![1].Properties.DestinationConfig.OnFailure.Destination));
  /** Alarms on a single metric with these name, namespace and dimension value (a Ref or GetAtt target id). */
  const on = (metricName: string, namespace: string, dimensionTarget?: string) => alarms.filter((a) => a.MetricName === metricName && a.Namespace === namespace
    && (dimensionTarget === undefined || a.Dimensions.some((d: any) => d.Value.Ref === dimensionTarget || d.Value['Fn::GetAtt']?.[0] === dimensionTarget)));
  const expressionAlarm = (metricName: string, namespace: string) => alarms.filter((a) => a.Metrics?.some((m: any) => m.MetricStat?.Metric.MetricName === metricName && m.MetricStat.Metric.Namespace === namespace));

  it('can reach the topic: its policy (which replaces SNS\'s default one) lets CloudWatch alarms of this account publish, over TLS only', () => {
    const policies = ofType('AWS::SNS::TopicPolicy').filter(([, r]) => r.Properties.Topics.some((t: any) => t.Ref === topicId));
    expect(policies).toHaveLength(1);
    const statements = policies[0]![1].Properties.PolicyDocument.Statement;
    const allows = statements.filter((st: any) => st.Effect === 'Allow');
    expect(allows).toEqual([expect.objectContaining({
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topicId },
      Condition: {
        StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        ArnLike: { 'aws:SourceArn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':alarm:*']] } },
      },
    })]);
    expect(statements.filter((st: any) => st.Effect === 'Deny')).toEqual([expect.objectContaining({ Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]);
  });

  it('every alarm notifies the topic when it fires and when it recovers, and idle is not breaching', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const a of alarms) {
      expect(a.AlarmActions, a.AlarmDescription).toEqual([{ Ref: topicId }]);
      expect(a.OKActions, a.AlarmDescription).toEqual([{ Ref: topicId }]);
      expect(a.TreatMissingData).toBe('notBreaching');
    }
  });

  it('fire on any message in any dead-letter queue (one per work queue, and the stream failures queue)', () => {
    expect(deadLetterIds.size).toBe(queueNames.length + 1);
    for (const id of deadLetterIds) {
      const [a] = on('ApproximateNumberOfMessagesVisible', 'AWS/SQS', id);
      expect(a, id).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Statistic: 'Maximum', EvaluationPeriods: 1 });
    }
  });

  it('fire when a work queue\'s oldest message has waited an hour (a worker behind or stopped)', () => {
    const workQueues = queues.filter(([, r]) => r.Properties.RedrivePolicy);
    expect(workQueues).toHaveLength(queueNames.length);
    expect(ALARM_THRESHOLDS.queueAgeSeconds).toBe(3600);
    for (const [id] of workQueues) {
      const matching = on('ApproximateAgeOfOldestMessage', 'AWS/SQS', id);
      expect(matching, id).toHaveLength(1);
      expect(matching[0]).toMatchObject({ Threshold: 3600, Statistic: 'Maximum', Period: 300, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('fire on any error and any throttle of each function', () => {
    for (const [id] of functions) {
      for (const metric of ['Errors', 'Throttles']) {
        const matching = on(metric, 'AWS/Lambda', id);
        expect(matching, `${metric} ${id}`).toHaveLength(1);
        expect(matching[0]).toMatchObject({ Threshold: 1, Statistic: 'Sum', Period: 300 });
      }
    }
  });

  it('watch the API 5xx rate and p99 latency', () => {
    const rate = expressionAlarm('5xx', 'AWS/ApiGateway')[0]!;
    expect(rate).toMatchObject({ Threshold: ALARM_THRESHOLDS.api5xxPercent, EvaluationPeriods: 2 });
    expect(rate.Metrics.find((m: any) => m.Expression).Expression).toMatch(/100 \* FILL\(errors, 0\) \/ requests/);
    expect(rate.Metrics.find((m: any) => m.Id === 'requests').MetricStat.Metric.MetricName).toBe('Count');
    const latency = alarms.filter((a) => a.MetricName === 'Latency' && a.Namespace === 'AWS/ApiGateway');
    expect(latency).toHaveLength(1);
    expect(latency[0]!).toMatchObject({ ExtendedStatistic: 'p99', Threshold: ALARM_THRESHOLDS.apiP99LatencyMs, EvaluationPeriods: 3 });
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    expect(latency[0]!.Dimensions).toEqual([{ Name: 'ApiId', Value: { Ref: apiId } }]);
  });

  it('watch DynamoDB read and write throttles and the stream consumer\'s iterator age', () => {
    const tableId = ofType('AWS::DynamoDB::Table')[0]![0];
    const throttles = expressionAlarm('ReadThrottleEvents', 'AWS/DynamoDB')[0]!;
    expect(throttles).toBeDefined();
    const stats = throttles.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric);
    expect(stats.map((m: any) => m.MetricName).sort()).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    for (const m of stats) expect(m.Dimensions).toEqual([{ Name: 'TableName', Value: { Ref: tableId } }]);
    expect(throttles.Threshold).toBe(1);
    const [age] = on('IteratorAge', 'AWS/Lambda', functionByDescription.get('docs-service worker space-expiry'));
    expect(age).toMatchObject({ Statistic: 'Maximum', Threshold: ALARM_THRESHOLDS.streamIteratorAgeMs });
  });

  it('and the dashboard graphs the service\'s own metrics (Powertools EMF, namespace DocsService)', () => {
    const body = JSON.stringify(ofType('AWS::CloudWatch::Dashboard')[0]![1].Properties.DashboardBody);
    for (const metric of ['Requests', 'RequestDuration', 'Jobs', 'JobDuration', 'QueueLag']) expect(body).toMatch(new RegExp(`SEARCH\\('\\{DocsService,[a-zA-Z,]+\\} MetricName=\\W+${metric}\\W`));
    expect(body).toContain('DocsService');
  });
});
