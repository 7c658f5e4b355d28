import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { queueUrlVariable, type QueueName } from '../../shared/config.ts';
import { FONT_FILES } from '../../shared/content/pdf/font-files.ts';
import { WEB_FONTS } from '../../shared/reader/web-font-files.ts';
import { grantAccess, usesBucket, type FunctionAccess } from './access.ts';
import { SECRET_ROOTS, type SecretRoot } from '../../shared/secrets/roots.ts';
import { LAMBDA_ESBUILD_TARGET, LAMBDA_NODE_OPTIONS } from '../lambda-node.ts';

/** Repository root: entries, the lock file and esbuild's working directory are resolved from here. */
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The service's resources; each function is told about (and granted) only those its FunctionAccess names. */
export interface ServiceResources {
  table: ITable;
  bucket: IBucket;
  queues: Record<QueueName, IQueue>;
  /** The secrets keys are derived from (shared/secrets/roots.ts): read at run time through their ARNs, never placed in the environment. */
  secrets: Record<SecretRoot, ISecret>;
  /** Extra variables for every function, e.g. PUBLIC_API_URL. */
  environment?: Record<string, string>;
}

export interface ServiceFunctionProps {
  /** Handler file relative to the repository root, exporting `handler`. */
  entry: string;
  /** Also identifies the function in tests, e.g. `docs-service group spaces`. */
  description: string;
  resources: ServiceResources;
  /** What it may touch (infra/constructs/access.ts): its grants and the variables naming those resources. */
  access: FunctionAccess;
  /** Defaults to 29 s, just under the HTTP API's 30 s integration limit. */
  timeout?: Duration;
  /** Renders PDFs: the Noto font files are copied into the bundle (`fonts/`, read through PDF_FONT_DIR). */
  pdfFonts?: boolean;
  /** Serves the reader's web fonts: their woff2 files are copied into the bundle (`web-fonts/`, read through READER_FONT_DIR). */
  webFonts?: boolean;
}

/** Bundle folder of the PDF fonts, and the commands that copy them there after bundling. */
const FONT_DIR = 'fonts';
const copyFonts = (inputDir: string, outputDir: string) => [
  `mkdir -p "${join(outputDir, FONT_DIR)}"`,
  ...Object.values(FONT_FILES).map(([pkg, file]) => `cp "${join(inputDir, 'node_modules', pkg, file)}" "${join(outputDir, FONT_DIR)}/"`),
];

/** Bundle folder of the reader's web fonts (shared/reader/web-font-files.ts), and the commands that copy them there. */
const WEB_FONT_DIR = 'web-fonts';
const copyWebFonts = (inputDir: string, outputDir: string) => [
  `mkdir -p "${join(outputDir, WEB_FONT_DIR)}"`,
  ...Object.values(WEB_FONTS).flatMap((font) => font.files).map(({ pkg, file }) => `cp "${join(inputDir, 'node_modules', pkg, file)}" "${join(outputDir, WEB_FONT_DIR)}/"`),
];

/** The variables naming what a function may touch (and nothing else), plus the shared ones; `nodeOptions` after every function's. */
export function functionEnvironment(access: FunctionAccess, { table, bucket, queues, secrets, environment }: ServiceResources, nodeOptions: string[] = []): Record<string, string> {
  return {
    ...(access.table !== 'none' || access.rateLimitCounters ? { TABLE_NAME: table.tableName } : {}),
    ...(usesBucket(access) ? { BUCKET_NAME: bucket.bucketName } : {}),
    ...Object.fromEntries(access.queues.map((name) => [queueUrlVariable(name), queues[name].queueUrl])),
    ...Object.fromEntries(access.secrets.map((root) => [SECRET_ROOTS[root].arnVariable, secrets[root].secretArn])),
    NODE_OPTIONS: [...LAMBDA_NODE_OPTIONS, ...nodeOptions].join(' '),
    ...environment,
  };
}

const requireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** Every Lambda of the service, with runtime, bundling, logging and environment fixed once. */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const { access } = props;
    super(scope, id, {
      entry: join(projectRoot, props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_24_X, // LAMBDA_NODE_MAJOR's line (the stack test holds them together)
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH }),
      // X-Ray: Powertools Tracer (shared/observability) adds the handler and AWS SDK subsegments.
      tracing: Tracing.ACTIVE,
      environment: {
        ...functionEnvironment(access, props.resources),
        ...(props.pdfFonts ? { PDF_FONT_DIR: `/var/task/${FONT_DIR}` } : {}),
        ...(props.webFonts ? { READER_FONT_DIR: `/var/task/${WEB_FONT_DIR}` } : {}),
      },
      bundling: {
        minify: true,
        format: OutputFormat.ESM,
        sourceMap: true,
        sourcesContent: false,
        target: LAMBDA_ESBUILD_TARGET,
        mainFields: ['module', 'main'],
        banner: requireBanner,
        // Bundle the AWS SDK too: one minified ESM file cold-starts faster than the runtime's SDK (ARCHITECTURE.md).
        externalModules: [],
        ...(props.pdfFonts || props.webFonts ? {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (inputDir: string, outputDir: string) => [
              ...(props.pdfFonts ? copyFonts(inputDir, outputDir) : []),
              ...(props.webFonts ? copyWebFonts(inputDir, outputDir) : []),
            ],
          },
        } : {}),
      },
    });
    grantAccess(this, access, props.resources);
  }
}
