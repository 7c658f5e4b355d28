import { IgnoreMode, type Duration, type Size } from 'aws-cdk-lib';
import { Architecture, DockerImageCode, DockerImageFunction, Tracing } from 'aws-cdk-lib/aws-lambda';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { grantAccess, type FunctionAccess } from './access.ts';
import { functionEnvironment, projectRoot, type ServiceResources } from './service-function.ts';

export interface ContainerFunctionProps {
  /** The image's Dockerfile, relative to the repository root (the build context). */
  dockerfile: string;
  resources: ServiceResources;
  access: FunctionAccess;
  description: string;
  timeout: Duration;
  memorySize: number;
  /** /tmp size (Lambda's default: 512 MB). */
  ephemeralStorageSize?: Size;
  /** Node's options beyond every function's (infra/lambda-node.ts). */
  nodeOptions?: string[];
}

/**
 * What an image's build context holds: only what the Dockerfiles COPY (the lock file and
 * manifests, shared/ and functions/ without their tests) and the Dockerfile itself, in
 * .dockerignore syntax. Everything else in the repository (test output, benchmarks, docs,
 * infra code, local data) stays out of the context and so out of the asset hash: the image
 * is rebuilt, and the function updated, only when what goes into it changes.
 */
export function imageContextExcludes(dockerfile: string): string[] {
  return ['*', '!package.json', '!package-lock.json', '!tsconfig.json', '!shared', '!functions', `!${dockerfile}`, '**/*.test.ts'];
}

/**
 * A Lambda of the service that needs more than its JavaScript bundle (a binary of the
 * function's architecture): a container image built from the repository by `cdk deploy`
 * (synth only stages the build context, offline), arm64, with the same logs, tracing,
 * environment and grants as every ServiceFunction.
 */
export class ContainerFunction extends Construct {
  readonly fn: DockerImageFunction;

  constructor(scope: Construct, id: string, props: ContainerFunctionProps) {
    super(scope, id);
    this.fn = new DockerImageFunction(this, 'Function', {
      code: DockerImageCode.fromImageAsset(projectRoot, {
        file: props.dockerfile,
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        exclude: imageContextExcludes(props.dockerfile),
      }),
      architecture: Architecture.ARM_64,
      description: props.description,
      memorySize: props.memorySize,
      ephemeralStorageSize: props.ephemeralStorageSize,
      timeout: props.timeout,
      logGroup: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH }),
      tracing: Tracing.ACTIVE,
      environment: functionEnvironment(props.access, props.resources, props.nodeOptions),
    });
    grantAccess(this.fn, props.access, props.resources);
  }
}
