import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { config } from '../config.ts';
import { serviceClient } from '../aws/service-client.ts';
import { SECRET_ROOTS } from './roots.ts';

const { arnVariable } = SECRET_ROOTS.service;

/**
 * The one service secret every purpose-specific key is derived from (keys.ts). Nothing is
 * built in: where it comes from depends on where the service runs, checked in this order:
 * - `SERVICE_SECRET_ARN` (the CDK stack sets it): read from Secrets Manager at run time,
 *   once per Lambda instance; the value never appears in the template or the environment.
 * - `SERVICE_SECRET`: an operator-provided value (at least 32 characters).
 * - `DATA_DIR`: `<DATA_DIR>/service-secret`, created with 32 random bytes on first start
 *   (mode 0600), so tokens and sealed values survive restarts of `npm start`.
 * - otherwise 32 random bytes kept in memory for the life of the process.
 * Inside a Lambda one of the first two is required: a random per-instance secret would
 * make every instance sign with another key.
 */
export const MIN_SECRET_LENGTH = 32;

/** A secret loaded once per instance; a failed read (throttling, network) is tried again on the next call. */
export function loadedOnce(load: () => Promise<Buffer>): { get(): Promise<Buffer>; reset(): void } {
  let cached: Promise<Buffer> | undefined;
  return {
    get: () => (cached ??= load().catch((error: unknown) => {
      cached = undefined;
      throw error;
    })),
    reset: () => {
      cached = undefined;
    },
  };
}

const service = loadedOnce(loadServiceSecret);

export function serviceSecret(): Promise<Buffer> {
  return service.get();
}

/** Forget the loaded secret (tests that change the environment). */
export function resetServiceSecret(): void {
  service.reset();
}

type SecretVariables = (typeof SECRET_ROOTS)[keyof typeof SECRET_ROOTS];

/** Whether an operator configured the secret (its ARN or its value). */
export function hasConfiguredSecret({ arnVariable, valueVariable }: SecretVariables): boolean {
  return Boolean(process.env[arnVariable] || process.env[valueVariable]);
}

/** The secret an operator configured: from Secrets Manager when its ARN is set, else its value; undefined when neither is. */
export function configuredSecret({ arnVariable, valueVariable }: SecretVariables): Promise<Buffer> | undefined {
  const arn = process.env[arnVariable];
  if (arn) return secretFromSecretsManager(arn, arnVariable);
  const value = process.env[valueVariable];
  return value ? Promise.resolve().then(() => checked(value, valueVariable)) : undefined;
}

async function loadServiceSecret(): Promise<Buffer> {
  const configured = configuredSecret(SECRET_ROOTS.service);
  if (configured) return configured;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error(`${arnVariable} is not set: the service secret must come from Secrets Manager`);
  const dataDir = process.env.DATA_DIR;
  if (dataDir) return fileSecret(join(dataDir, 'service-secret'));
  return randomBytes(32);
}

/**
 * A secret read from Secrets Manager with Powertools Parameters (and the traced SDK client).
 * Callers keep the value for the life of the instance, since every key derived from it and
 * every value sealed with one depends on it.
 */
async function secretFromSecretsManager(arn: string, variable: string): Promise<Buffer> {
  const provider = new SecretsProvider({ awsSdkV3Client: serviceClient(SecretsManagerClient, { region: config.region }) });
  const value = await provider.get(arn, { maxAge: 24 * 60 * 60 });
  const text = typeof value === 'string' ? value : value ? Buffer.from(value).toString('utf8') : '';
  return checked(text, `the secret named by ${variable}`);
}

function checked(value: string, source: string): Buffer {
  if (value.length < MIN_SECRET_LENGTH) throw new Error(`${source} must be at least ${MIN_SECRET_LENGTH} characters`);
  return Buffer.from(value, 'utf8');
}

function fileSecret(path: string): Buffer {
  try {
    return checked(readFileSync(path, 'utf8').trim(), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(join(path, '..'), { recursive: true });
  const value = randomBytes(32).toString('base64url');
  // 'wx': two processes starting at once must not both write; the loser reads the winner's.
  try {
    writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return checked(readFileSync(path, 'utf8').trim(), path);
    throw error;
  }
  return Buffer.from(value, 'utf8');
}
