import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { QueueName } from '../../shared/config.ts';
import type { GroupName } from '../../functions/catalogue.ts';
import { blobKey } from '../../shared/content/blobs.ts';
import { spaceObjectPrefix } from '../../shared/commands/spaces/purge.ts';
import { RATE_LIMIT_KEY_PREFIX } from '../../shared/db/entities/rate-limit.ts';
import { INTEGRATION_KEY_PREFIX, orgInstallationsPartition } from '../../shared/db/entities/integration.ts';
import { SITE_KEY_PREFIX } from '../../shared/db/entities/site-partition.ts';
import { INSTALLATION_TOKEN_KEY_PREFIX } from '../../shared/db/entities/token.ts';
import { indexes, type IndexName } from '../../shared/db/table.ts';
import { translationProviders } from '../../shared/translate/providers.ts';
import type { ServiceResources } from './service-function.ts';
import type { SecretRoot } from '../../shared/secrets/roots.ts';
import { ANSWERS_PREFIX } from '../../shared/http/oversized-answers.ts';

/**
 * What each function may touch, declared once and turned into its IAM grants (and into the
 * environment it is told about). Worked out from each handler's bundle: who calls
 * `enqueue(...)` of which job kind (shared/jobs/jobs.ts queueOfJob), who writes the table,
 * and which S3 prefixes the code uses. test/infra/stack.test.ts checks every role against it.
 */

/**
 * The bucket's key spaces: blobs (shared/content/blobs.ts), derived indexes (shared/content/search/derived-index.ts),
 * per-space objects (purge), answers too large for Lambda (shared/http/oversized-answers.ts).
 */
export const bucketPrefixes = {
  blobs: blobKey(''),
  indexes: 'indexes/',
  spaces: spaceObjectPrefix('').replace(/\/\/$/, '/'),
  answers: ANSWERS_PREFIX,
} as const;
export type BucketPrefix = keyof typeof bucketPrefixes;

/**
 * The table partitions a function may touch, as `dynamodb:LeadingKeys` patterns (IAM
 * StringLike: `*` is any run of characters), built from the entities' own key functions and
 * prefixes. For a Query on an index, LeadingKeys is the index's partition key value (the one
 * the request names), so index queries are scoped by their own patterns, index by index.
 */
export interface TablePartitions {
  /** Items it reads: GetItem, BatchGetItem, Query on the table, ConditionCheckItem. */
  read: readonly string[];
  /** Items it writes: PutItem, UpdateItem, DeleteItem, BatchWriteItem (rate-limit counters come with rateLimitCounters). */
  write: readonly string[];
  /** Queries on an index: patterns of the index's partition key. An index not named may not be queried. */
  indexes: Partial<Record<IndexName, readonly string[]>>;
}

/** A leading-key pattern: every partition whose key starts with `prefix`. */
export const startingWith = (prefix: string) => `${prefix}*`;

/** The condition of a statement limited to these partitions (every key the request names must match one). */
const onPartitions = (patterns: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] } });

export interface FunctionAccess {
  /** 'read': GetItem, BatchGetItem, Query, ConditionCheckItem; 'readwrite' adds PutItem, UpdateItem, DeleteItem, BatchWriteItem. */
  table: 'none' | 'read' | 'readwrite';
  /** Only these partitions (each action above conditioned on dynamodb:LeadingKeys); absent: every partition. */
  partitions?: TablePartitions;
  /**
   * Counts requests in the table (shared/http/rate-limit.ts, every HTTP-facing function): a
   * read-only function, or one limited to partitions, may still UpdateItem on `RATE#` partitions.
   */
  rateLimitCounters: boolean;
  /** Reads every record with Scan: only the blob sweep's mark (shared/content/blob-sweep.ts), the one scan of the service. */
  scansTable?: boolean;
  /** Queues it sends jobs to. */
  queues: readonly QueueName[];
  bucket: {
    read?: readonly BucketPrefix[];
    write?: readonly BucketPrefix[];
    /** Deleting goes with listing what is under the prefix (ListObjectsV2 then DeleteObjects). */
    delete?: readonly BucketPrefix[];
    /**
     * Reads keys that may not exist yet (a derived index is built on a miss): S3 answers a
     * missing key with 404 only to a caller allowed to list the bucket, 403 otherwise.
     */
    probesMissingKeys?: boolean;
  };
  /**
   * The secrets it derives keys from at run time (shared/secrets/keys.ts): `service` for the
   * service's own keys, `integrations` for webhook signing, integration secrets and render calls.
   */
  secrets: readonly SecretRoot[];
}

/**
 * An HTTP-facing function: authenticates or counts every request, so it reads the service
 * secret and writes rate-limit counters; it stores an answer too large for Lambda and
 * presigns its GET (shared/http/lambda-entry.ts), so it writes and reads `answers/`.
 */
const http = (access: Partial<FunctionAccess>): FunctionAccess => {
  const declared: FunctionAccess = { table: 'readwrite', rateLimitCounters: true, queues: [], bucket: {}, secrets: ['service'], ...access };
  const { read = [], write = [] } = declared.bucket;
  return { ...declared, bucket: { ...declared.bucket, read: [...read, 'answers'], write: [...write, 'answers'] } };
};
const worker = (access: Partial<FunctionAccess>): FunctionAccess => ({
  table: 'readwrite', rateLimitCounters: false, queues: [], bucket: {}, secrets: ['service'], ...access,
});

/** Searches and link listings read and build derived indexes of the content they read. */
const searchesContent = { read: ['blobs', 'indexes'], write: ['indexes'], probesMissingKeys: true } as const;

/**
 * Every endpoint group writes the table (each has write operations). Queues: git-sync from
 * the git group, translation-run from translations, integration-event from integrations,
 * openapi-process from openapi and conversations-cluster from conversations (both `jobs`);
 * revision-images (`images`) from every function that prepares revisions (shared/content/revisions.ts).
 */
export const groupAccess: Record<GroupName, FunctionAccess> = {
  collections: http({}),
  spaces: http({ queues: ['images'], bucket: { ...searchesContent, write: ['blobs', 'indexes'] } }), // initial content, links; image variants of new revisions
  content: http({ queues: ['integration-events', 'images'], bucket: { ...searchesContent, write: ['blobs', 'indexes'] } }), // edits, files, search, links; space_content_updated
  'change-requests': http({ queues: ['integration-events', 'images'], bucket: { read: ['blobs'], write: ['blobs'] } }), // merges (space_content_updated), PDF exports (presigned)
  comments: http({ bucket: { read: ['blobs'] } }), // comment targets in page documents
  openapi: http({ queues: ['jobs'], bucket: { write: ['blobs'] } }), // source texts
  sites: http({ bucket: searchesContent }), // site search
  organizations: http({ bucket: searchesContent }), // organization search
  members: http({}),
  teams: http({}),
  sso: http({}),
  translations: http({ queues: ['translations'] }),
  conversations: http({ queues: ['jobs'] }),
  // icons, scripts, previews; installation events; seals integration secrets, shows signing secrets
  integrations: http({ queues: ['integration-events'], bucket: { write: ['blobs'] }, secrets: ['service', 'integrations'] }),
  git: http({ queues: ['git'] }),
};

/** The published-site reader: reads the table (writes only its counters), reads content, presigns file URLs, builds search indexes. */
export const readerAccess: FunctionAccess = http({ table: 'read', bucket: searchesContent, secrets: ['service', 'integrations'] }); // signs its render calls to the runtime

/** Queue consumers, and the stream consumer that turns TTL removals into purge jobs. */
export const workerAccess: Record<QueueName | 'space-expiry', FunctionAccess> = {
  git: worker({ queues: ['integration-events', 'images'], bucket: { read: ['blobs'], write: ['blobs'] } }), // space_gitsync_* events, image variants
  translations: worker({ queues: ['integration-events', 'images'], bucket: { read: ['blobs'], write: ['blobs'] } }), // space_content_updated of result spaces, image variants of translated revisions
  // The integration runtime (infra/constructs/integration-runtime.ts): scripts (blobs), signing and sealing
  // keys derived from the integration secret. It runs third-party code, so it touches only the partitions its code
  // paths use (test/integration-runtime-partitions.test.ts records them): integrations, installations,
  // their locks and events, block renders and site scripts (INTEGRATION#); installation tokens it mints (INSTALLATIONTOKEN#,
  // written only; never a user's TOKEN#); a published site's structure (SITE#, read only); an organization's installations
  // (gsi1) for the site's scripts; the counters of its public endpoints (RATE#).
  'integration-events': worker({
    rateLimitCounters: true,
    // The integration secret alone: none of the service's own keys (shared/secrets/keys.ts).
    secrets: ['integrations'],
    partitions: {
      read: [startingWith(INTEGRATION_KEY_PREFIX), startingWith(SITE_KEY_PREFIX)],
      write: [startingWith(INTEGRATION_KEY_PREFIX), startingWith(INSTALLATION_TOKEN_KEY_PREFIX)],
      indexes: { gsi1: [orgInstallationsPartition('*')] },
    },
    bucket: { read: ['blobs'] },
  }),
  // OpenAPI processing, space purges, the blob sweep (scans the table, lists and deletes blobs/,
  // sends itself the job that continues a run its invocation did not finish).
  jobs: worker({ scansTable: true, queues: ['jobs'], bucket: { read: ['blobs'], write: ['blobs'], delete: ['spaces', 'blobs'] } }),
  // Image variants (shared/content/images): reads revisions and blobs, HEADs variants that may not exist yet,
  // writes them under blobs/, sends a revision's images on in image-variants jobs.
  images: worker({ table: 'read', queues: ['images'], bucket: { read: ['blobs'], write: ['blobs'], probesMissingKeys: true }, secrets: [] }),
  // Reads nothing but its stream records (granted by the event source) and sends purge-space jobs.
  'space-expiry': worker({ table: 'none', queues: ['jobs'], secrets: [] }),
};

export function usesBucket({ bucket }: FunctionAccess): boolean {
  return Boolean(bucket.read?.length || bucket.write?.length || bucket.delete?.length);
}

export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

/** Refuses a partition declaration IAM could not enforce as written. */
export function checkPartitions(access: FunctionAccess): void {
  // A Scan names no leading key, and ForAllValues holds for an empty set: it would read every partition.
  if (access.partitions && access.scansTable) throw new Error('partitions: a function that scans the table cannot be limited to partitions');
  if (access.partitions?.write.length && access.table === 'read') throw new Error('partitions: a read-only function declares no partitions it writes');
}

/** Turns a declaration into the function's policy statements: nothing else grants data access. */
export function grantAccess(fn: IFunction, access: FunctionAccess, { table, bucket, queues, secrets }: ServiceResources): void {
  const add = (statement: PolicyStatement) => fn.addToRolePolicy(statement);
  const { partitions } = access;
  if (access.table !== 'none' && !partitions) {
    // Queries may use the GSIs; writes only ever name the table.
    add(new PolicyStatement({ actions: [...TABLE_READ_ACTIONS], resources: [table.tableArn, `${table.tableArn}/index/*`] }));
    if (access.table === 'readwrite') add(new PolicyStatement({ actions: [...TABLE_WRITE_ACTIONS], resources: [table.tableArn] }));
    if (access.scansTable) add(new PolicyStatement({ actions: ['dynamodb:Scan'], resources: [table.tableArn] }));
  }
  if (access.table !== 'none' && partitions) {
    checkPartitions(access);
    if (partitions.read.length) add(new PolicyStatement({ actions: [...TABLE_READ_ACTIONS], resources: [table.tableArn], conditions: onPartitions(partitions.read) }));
    for (const [index, patterns] of Object.entries(partitions.indexes) as [IndexName, readonly string[]][]) {
      add(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/${indexes[index].name}`], conditions: onPartitions(patterns) }));
    }
    if (partitions.write.length) add(new PolicyStatement({ actions: [...TABLE_WRITE_ACTIONS], resources: [table.tableArn], conditions: onPartitions(partitions.write) }));
  }
  if (access.rateLimitCounters && (access.table !== 'readwrite' || partitions)) {
    add(new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: onPartitions([startingWith(RATE_LIMIT_KEY_PREFIX)]),
    }));
  }
  for (const name of access.queues) queues[name].grantSendMessages(fn);
  const objects = (prefixes: readonly BucketPrefix[] = []) => prefixes.map((p) => bucket.arnForObjects(`${bucketPrefixes[p]}*`));
  const { read, write, delete: remove, probesMissingKeys } = access.bucket;
  if (read?.length) add(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(read) }));
  if (write?.length) add(new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(write) }));
  if (remove?.length) {
    add(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: objects(remove) }));
    if (!probesMissingKeys) {
      add(new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': remove.map((p) => `${bucketPrefixes[p]}*`) } },
      }));
    }
  }
  if (probesMissingKeys) add(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  for (const root of access.secrets) secrets[root].grantRead(fn);
}

/**
 * What the translations worker may call for the provider chosen at synth time: nothing for
 * `pseudo`; TranslateText (which has no resource-level permissions) for Amazon Translate;
 * InvokeModel (what Converse needs) on the one model for Bedrock — the foundation model in
 * any region, and the account's inference profile when the id names one (`us.anthropic...`).
 */
export function translationProviderGrant(provider: string, modelId: string): PolicyStatement | undefined {
  if (!(translationProviders as readonly string[]).includes(provider)) {
    throw new Error(`TRANSLATION_PROVIDER must be one of ${translationProviders.join(', ')}, not "${provider}"`);
  }
  if (provider === 'amazon-translate') return new PolicyStatement({ actions: ['translate:TranslateText'], resources: ['*'] });
  if (provider !== 'bedrock') return undefined;
  const foundationModel = modelId.replace(/^(us|eu|apac|us-gov|global)\./, '');
  return new PolicyStatement({
    actions: ['bedrock:InvokeModel'],
    resources: [
      `arn:${Aws.PARTITION}:bedrock:*::foundation-model/${foundationModel}`,
      ...(foundationModel !== modelId ? [`arn:${Aws.PARTITION}:bedrock:${Aws.REGION}:${Aws.ACCOUNT_ID}:inference-profile/${modelId}`] : []),
    ],
  });
}
