import type { Duration } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import type { FunctionAccess } from './access.ts';
import type { ApiRoutes } from './api-routes.ts';
import type { ServiceResources } from './service-function.ts';
import { ContainerFunction } from './container-function.ts';
import { BLOCK_RENDER_PATH, INTEGRATION_PUBLIC_PATHS, PUBLISHED_SCRIPT_PATH } from '../../functions/integrations/public-paths.ts';

export interface IntegrationRuntimeProps {
  resources: ServiceResources;
  access: FunctionAccess;
  description: string;
  timeout: Duration;
}

/**
 * The integration runtime in AWS: a container-image Lambda (infra/integration-runtime.Dockerfile)
 * carrying workerd, which a zip Lambda cannot (the binary and its Linux build are ~100 MB, and
 * it must be the build of the function's architecture). It consumes the integration-events
 * queue and serves the integrations' public endpoints (functions/integration-runtime/handler.ts);
 * the image is built by `cdk deploy` (synth only stages the build context, offline).
 * 2 GB of memory: workerd runs beside Node, one process per event, each capped at
 * INTEGRATION_MEMORY_MB (shared/integrations/limits.ts).
 */
export class IntegrationRuntime extends ContainerFunction {
  constructor(scope: Construct, id: string, props: IntegrationRuntimeProps) {
    super(scope, id, { ...props, dockerfile: 'infra/integration-runtime.Dockerfile', memorySize: 2048 });
  }

  /** Routes the public endpoints (`urls.publicEndpoint`), any method, to the runtime. */
  servePublicEndpoints(routes: ApiRoutes): void {
    const integration = new HttpLambdaIntegration('integration-runtime-integration', this.fn, { scopePermissionToRoute: false });
    for (const path of INTEGRATION_PUBLIC_PATHS) routes.add({ path: `/v1${path}`, methods: [HttpMethod.ANY], integration });
    // More specific than the reader's GET /s/{proxy+}: published-site scripts run the integration.
    routes.add({ path: PUBLISHED_SCRIPT_PATH, methods: [HttpMethod.GET], integration });
    // Integration blocks' renders, signed by the reader (shared/reader/integration-blocks.ts).
    routes.add({ path: BLOCK_RENDER_PATH, methods: [HttpMethod.POST], integration });
  }
}
