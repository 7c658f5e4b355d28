import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/transport';
import { KeyObjectSha256 } from './sha256.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('KeyObjectSha256', () => {
  it('signs a request exactly as the SDK’s own SHA-256', async () => {
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session' };
    const request = () => new HttpRequest({
      method: 'POST', protocol: 'https:', hostname: 'dynamodb.eu-west-3.amazonaws.com', path: '/',
      headers: { host: 'dynamodb.eu-west-3.amazonaws.com', 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' },
      body: JSON.stringify({ TableName: 'docs', Key: { pk: { S: 'SPACE#é' }, sk: { S: 'SPACE' } } }),
    });
    const signingDate = new Date('2026-12-07T12:00:00Z');
    const sign = (sha256: typeof Sha256 | typeof KeyObjectSha256) =>
      new SignatureV4({ credentials, region: 'eu-west-3', service: 'dynamodb', sha256 }).sign(request(), { signingDate });
    const [theirs, ours] = await Promise.all([sign(Sha256), sign(KeyObjectSha256)]);
    expect(ours.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261207\/eu-west-3\/dynamodb\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/);
    expect(ours.headers).toEqual(theirs.headers);
  });

  it('is HMAC-SHA256 for keys of every kind, and SHA-256 without a key', async () => {
    const data = 'string to sign\nwith lines';
    const keys = [new Uint8Array([1, 2, 3, 250]), Buffer.from('AWS4secret'), new Uint8Array([9, 8, 7, 6]).buffer, 'AWS4secret', new Uint8Array(0)];
    for (const key of keys) {
      const ours = new KeyObjectSha256(key);
      ours.update(data);
      const expected = createHmac('sha256', typeof key === 'string' ? key : Buffer.from(key instanceof ArrayBuffer ? new Uint8Array(key) : key)).update(data).digest('hex');
      expect(hex(await ours.digest())).toBe(expected);
    }
    for (const noKey of [undefined, '']) {
      const plain = new KeyObjectSha256(noKey);
      plain.update(new TextEncoder().encode('abc'));
      expect(hex(await plain.digest())).toBe(createHash('sha256').update('abc').digest('hex'));
      // A plain hash may go on after a digest, as the SDK's does (streamed payload hashes).
      plain.update('def');
      expect(hex(await plain.digest())).toBe(createHash('sha256').update('abcdef').digest('hex'));
      plain.reset();
      expect(hex(await plain.digest())).toBe(createHash('sha256').digest('hex'));
    }
  });
});
