import { NestedStack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type HttpApi, type HttpRouteIntegration } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';

export interface RouteOptions {
  path: string;
  methods: HttpMethod[];
  integration: HttpRouteIntegration;
}

/**
 * The HTTP API's routes, in a nested stack of their own. One route per declared operation is
 * most of the service's resources, and CloudFormation refuses a stack of more than 500: here
 * they have a template of their own (test/infra/stack.test.ts keeps both under budget).
 *
 * `add` makes the same routes as `HttpApi.addRoutes` (which would put them in the API's stack):
 * no authorizer, one route per method. aws-cdk-lib creates a route's integration, and with
 * `scopePermissionToRoute: false` the function's one API-wide invoke permission, in the scope
 * of the first route that uses it, so those live here too; the API id and function ARNs
 * reach this template as nested-stack parameters.
 */
export class ApiRoutes extends NestedStack {
  private readonly httpApi: HttpApi;

  constructor(scope: Construct, id: string, httpApi: HttpApi) {
    super(scope, id, { description: 'Routes of the docs service HTTP API (one per operation) and their Lambda integrations' });
    this.httpApi = httpApi;
    // The $default stage's autoDeploy deploys every change to the API, whichever stack makes it;
    // creating the routes before the stage also makes its first deployment hold them all.
    httpApi.defaultStage!.node.addDependency(this);
  }

  add({ path, methods, integration }: RouteOptions): HttpRoute[] {
    return methods.map((method) => new HttpRoute(this, `${method}${path}`, {
      httpApi: this.httpApi, routeKey: HttpRouteKey.with(path, method), integration,
    }));
  }
}
