import { Duration, Size } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueNames, type QueueName } from '../../shared/config.ts';
import { workerConsumption, workerTimeouts } from './queues.ts';
import { ServiceFunction, type ServiceResources } from './service-function.ts';
import { translationProviderGrant, workerAccess } from './access.ts';
import { DEFAULT_BEDROCK_MODEL } from '../../shared/translate/bedrock.ts';
import { BlobSweepSchedule } from './blob-sweep-schedule.ts';
import { ENTITY_TYPE } from '../../shared/db/table.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { IntegrationRuntime } from './integration-runtime.ts';
import { ContainerFunction } from './container-function.ts';
import { GIT_WORKER_NODE_OPTIONS } from '../lambda-node.ts';

/**
 * The git worker's memory: 1,769 MB is where Lambda gives one whole vCPU (CPU grows with
 * memory). A Git import spends its time on one thread parsing markdown and writing packs
 * (bench/README.md): at the 512 MB its peak RSS (~300 MB) would need, it gets ~0.29 vCPU and
 * a 1,000-page import takes ~3.5 times as long for about the same GB-seconds.
 */
export const GIT_WORKER_MEMORY_MB = 1769;

/** Queue consumers (one per queue) and the stream consumer that turns TTL removals of spaces into purge jobs. */
export class DocsWorkers extends Construct {
  readonly functions: Record<QueueName, LambdaFunction>;
  /** Consumes integration-events and serves the public endpoints (routed by the stack). */
  readonly integrationRuntime: IntegrationRuntime;
  readonly spaceExpiry: ServiceFunction;
  /** Where stream batches go after the retries are spent, so a missed purge can be found and replayed. */
  readonly spaceExpiryFailures: Queue;

  constructor(scope: Construct, id: string, resources: ServiceResources & { table: ITable }) {
    super(scope, id);
    const functions: Partial<Record<QueueName, LambdaFunction>> = {};
    this.integrationRuntime = new IntegrationRuntime(this, 'integration-events', {
      resources, access: workerAccess['integration-events'], description: 'docs-service worker integration-events', timeout: workerTimeouts['integration-events'],
    });
    // Image variants run sharp, whose libvips binary must be the arm64 build (npm's @img/sharp-linux-arm64,
    // installed by `npm ci` inside the image; a zip bundle would need it on the synthesizing machine).
    // 2 GB: decoding an image of up to 50 MP takes ~200 MB, and Lambda's CPU grows with memory.
    const imageWorker = new ContainerFunction(this, 'images', {
      dockerfile: 'infra/image-worker.Dockerfile', resources, access: workerAccess.images, description: 'docs-service worker images', timeout: workerTimeouts.images, memorySize: 2048,
    });
    for (const name of queueNames) {
      // Integration events run published scripts: the runtime's container-image Lambda (workerd).
      // Git import and export run the git CLI (shared/git/repo.ts): a container image that carries it;
      // /tmp holds the bare clone, up to the 1 GiB a Git request may bring (shared/git/egress-http.ts).
      // GIT_WORKER_MEMORY_MB: one whole vCPU, as an import is CPU-bound on one thread; GIT_WORKER_NODE_OPTIONS: one V8 helper on it.
      const gitWorker = name === 'git' ? new ContainerFunction(this, name, {
        dockerfile: 'infra/git-worker.Dockerfile', resources, access: workerAccess.git, description: 'docs-service worker git', timeout: workerTimeouts.git, memorySize: GIT_WORKER_MEMORY_MB,
        ephemeralStorageSize: Size.gibibytes(2), nodeOptions: GIT_WORKER_NODE_OPTIONS,
      }).fn : undefined;
      const fn = name === 'integration-events' ? this.integrationRuntime.fn : name === 'images' ? imageWorker.fn : gitWorker ?? new ServiceFunction(this, name, {
        entry: `functions/workers/${name}/handler.ts`,
        description: `docs-service worker ${name}`,
        resources,
        access: workerAccess[name],
        timeout: workerTimeouts[name],
      });
      fn.addEventSource(new SqsEventSource(resources.queues[name], { ...workerConsumption[name], reportBatchItemFailures: true }));
      functions[name] = fn;
    }
    this.functions = functions as Record<QueueName, LambdaFunction>;
    new BlobSweepSchedule(this, 'blob-sweep-schedule', { jobsQueue: resources.queues.jobs });
    // Translation providers (shared/translate/providers.ts): chosen at synth time, pseudo by default;
    // the worker may call only the chosen one (and, for Bedrock, only the chosen model).
    const provider = process.env.TRANSLATION_PROVIDER || 'pseudo';
    functions.translations!.addEnvironment('TRANSLATION_PROVIDER', provider);
    if (process.env.BEDROCK_MODEL_ID) functions.translations!.addEnvironment('BEDROCK_MODEL_ID', process.env.BEDROCK_MODEL_ID);
    const providerGrant = translationProviderGrant(provider, process.env.BEDROCK_MODEL_ID || DEFAULT_BEDROCK_MODEL);
    if (providerGrant) functions.translations!.addToRolePolicy(providerGrant);

    this.spaceExpiryFailures = new Queue(this, 'space-expiry-failures', { retentionPeriod: Duration.days(14), enforceSSL: true });
    this.spaceExpiry = new ServiceFunction(this, 'space-expiry', {
      entry: 'functions/workers/space-expiry/handler.ts',
      description: 'docs-service worker space-expiry',
      resources,
      access: workerAccess['space-expiry'],
      timeout: Duration.minutes(1),
    });
    // Only removals of spaces made by DynamoDB itself (TTL expiry) reach the function: the TTL
    // removals of every other kind (rate-limit counters each minute, SAML requests, tokens) are
    // dropped by the event source instead of invoking it, as the handler would skip them.
    this.spaceExpiry.addEventSource(new DynamoEventSource(resources.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      reportBatchItemFailures: true,
      retryAttempts: 10,
      bisectBatchOnError: true,
      onFailure: new SqsDlq(this.spaceExpiryFailures),
      filters: [FilterCriteria.filter({
        eventName: FilterRule.isEqual('REMOVE'),
        userIdentity: { type: FilterRule.isEqual('Service'), principalId: FilterRule.isEqual('dynamodb.amazonaws.com') },
        dynamodb: { OldImage: { [ENTITY_TYPE]: { S: FilterRule.isEqual(spaceEntity.type) } } },
      })],
    }));
  }
}
