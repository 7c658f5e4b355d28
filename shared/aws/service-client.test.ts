import { describe, expect, it } from 'vitest';
import { S3Client } from '@aws-sdk/client-s3';
import { serviceClient } from './service-client.ts';

describe('serviceClient', () => {
  it('drops the SDK logger middleware and keeps the rest of the stack', () => {
    const plain = new S3Client({ region: 'us-east-1' });
    const prepared = serviceClient(new S3Client({ region: 'us-east-1' }));
    const names = (client: S3Client) => client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);
    expect(names(plain)).toContain('loggerMiddleware');
    expect(names(prepared)).not.toContain('loggerMiddleware');
    expect(names(prepared)).toEqual(names(plain).filter((name) => name !== 'loggerMiddleware'));
  });
});
