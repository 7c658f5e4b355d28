import { Duration } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { groupNames, operations, type GroupName } from '../../functions/catalogue.ts';
import { SERVICE_DESCRIPTION_GROUP, SERVICE_DESCRIPTION_ROUTES } from '../../shared/http/service-description.ts';
import { HEALTH_GROUP, HEALTH_ROUTES } from '../../shared/http/health.ts';
import { ServiceFunction, type ServiceResources } from './service-function.ts';
import { ApiRoutes } from './api-routes.ts';
import { groupAccess, readerAccess } from './access.ts';

/** The group whose app answers unknown routes (every group app answers them the same way). */
export const NOT_FOUND_GROUP: GroupName = 'organizations';

/** Routes of the reader site (functions/reader): published sites as HTML, markdown and text files. */
export const READER_ROUTES = [{ method: HttpMethod.GET, path: '/s/{proxy+}' }] as const;

/** SAML service-provider endpoints (functions/sso/service-provider.ts), served by the sso group's Lambda. */
export const SSO_SERVICE_PROVIDER_ROUTES = [
  { method: HttpMethod.GET, path: '/sso/saml/{providerId}' },
  { method: HttpMethod.GET, path: '/sso/saml/{providerId}/start' },
  { method: HttpMethod.POST, path: '/sso/saml/{providerId}/acs' },
] as const;

/**
 * The outer wall: API Gateway's throttle of the default stage, for all callers together
 * (requests per second, and the bucket a burst may use). The service's own limits per
 * token and per address (shared/http/rate-limit.ts) apply inside it.
 */
export const API_STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

/**
 * One JSON line per request in the stage's access log. API Gateway's $context only: the
 * path without its query string, no headers, so no token reaches the log. The request id
 * is the one the functions log as request_id.
 */
export const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
} as const;

export interface DocsApiProps extends ServiceResources {
  /** The stage throttle (stack parameters), API_STAGE_THROTTLE by default. */
  throttle?: { rateLimit: number; burstLimit: number };
}

/**
 * The public HTTP API: one Lambda per endpoint group, one route per declared operation (functions/catalogue.ts),
 * all under /v1, and the service's description (/v1/openapi.json, /v1/docs); plus the reader site's Lambda on `GET /s/{proxy+}`.
 */
export class DocsApi extends Construct {
  readonly httpApi: HttpApi;
  /** Where every route goes (a nested stack: see ApiRoutes). */
  readonly routes: ApiRoutes;
  readonly functions: Record<GroupName, ServiceFunction>;
  readonly reader: ServiceFunction;

  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, { throttle = API_STAGE_THROTTLE, ...resources }: DocsApiProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', { description: 'Documentation publishing service API (/v1)' });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    const stage = this.httpApi.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };
    stage.accessLogSettings = { destinationArn: this.accessLogs.logGroupArn, format: JSON.stringify(ACCESS_LOG_FORMAT) };
    this.routes = new ApiRoutes(this, 'Routes', this.httpApi);
    const functions: Partial<Record<GroupName, ServiceFunction>> = {};
    const integrations: Partial<Record<GroupName, HttpLambdaIntegration>> = {};
    for (const group of groupNames) {
      const fn = new ServiceFunction(this, group, {
        entry: `functions/${group}/handler.ts`,
        description: `docs-service group ${group}`,
        resources: {
          ...resources,
          environment: { PUBLIC_API_URL: this.httpApi.apiEndpoint, ...resources.environment },
        },
        access: groupAccess[group],
        timeout: Duration.seconds(29),
        pdfFonts: group === 'change-requests', // getChangeRequestPDF
      });
      functions[group] = fn;
      // One API-wide invoke permission per function instead of one per route (keeps the resource policy small).
      integrations[group] = new HttpLambdaIntegration(`${group}-integration`, fn, { scopePermissionToRoute: false });
    }
    for (const op of operations) {
      this.routes.add({ path: `/v1${op.path}`, methods: [HttpMethod[op.method]], integration: integrations[op.group]! });
    }
    // The service's own description, without a token (shared/http/service-description.ts).
    for (const route of SERVICE_DESCRIPTION_ROUTES) {
      this.routes.add({ path: `/v1${route.path}`, methods: [HttpMethod[route.method]], integration: integrations[SERVICE_DESCRIPTION_GROUP]! });
    }
    // The health check, without a token (shared/http/health.ts).
    for (const route of HEALTH_ROUTES) {
      this.routes.add({ path: `/v1${route.path}`, methods: [HttpMethod[route.method]], integration: integrations[HEALTH_GROUP]! });
    }
    // Everything else reaches one group app, which answers the service's JSON 404
    // (API Gateway's own would be {"message":"Not Found"}).
    this.routes.add({ path: '/{proxy+}', methods: [HttpMethod.ANY], integration: integrations[NOT_FOUND_GROUP]! });
    for (const route of SSO_SERVICE_PROVIDER_ROUTES) this.routes.add({ path: route.path, methods: [route.method], integration: integrations.sso! });
    this.functions = functions as Record<GroupName, ServiceFunction>;

    // The reader site: reads the table and content (presigned file URLs); writes only its rate-limit counters and search indexes.
    this.reader = new ServiceFunction(this, 'reader', {
      entry: 'functions/reader/handler.ts',
      description: 'docs-service reader',
      resources: { ...resources, environment: { PUBLIC_API_URL: this.httpApi.apiEndpoint, ...resources.environment } },
      access: readerAccess,
      timeout: Duration.seconds(29),
      pdfFonts: true, // `<page>.pdf` (functions/reader/pdf.ts)
      webFonts: true, // `~assets/fonts/` (shared/reader/fonts.ts)
    });
    const readerIntegration = new HttpLambdaIntegration('reader-integration', this.reader, { scopePermissionToRoute: false });
    for (const route of READER_ROUTES) this.routes.add({ path: route.path, methods: [route.method], integration: readerIntegration });
  }
}
