import { describe, expect, it } from 'vitest';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { serviceClient } from './service-client.ts';
import { KeyObjectSha256 } from './sha256.ts';

describe('serviceClient', () => {
  it('drops the SDK logger middleware and keeps the rest of the stack', () => {
    const plain = new S3Client({ region: 'us-east-1' });
    const prepared = serviceClient(S3Client, { region: 'us-east-1' });
    const names = (client: S3Client) => client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);
    expect(names(plain)).toContain('loggerMiddleware');
    expect(names(prepared)).not.toContain('loggerMiddleware');
    expect(names(prepared)).toEqual(names(plain).filter((name) => name !== 'loggerMiddleware'));
  });

  it('signs with KeyObjectSha256 and keeps the configuration it is given', async () => {
    const client = serviceClient(DynamoDBClient, { region: 'eu-west-3' });
    expect(client.config.sha256).toBe(KeyObjectSha256);
    expect(await client.config.region()).toBe('eu-west-3');
  });
});
