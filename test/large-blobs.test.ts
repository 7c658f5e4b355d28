/**
 * Blobs above the multipart threshold (shared/aws/large-put.ts) against the real emulator,
 * whose S3 refuses request bodies over 11 MiB: one PUT of such a file failed the whole Git
 * import or upload. Small blobs still go up in one PUT.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand, CreateBucketCommand, CreateMultipartUploadCommand, DeleteBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, UploadPartCommand,
} from '@aws-sdk/client-s3';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createRepo, pngFile, useGitServer } from './support/git-server.ts';
import { useLoopbackServer } from './support/loopback-server.ts';
import { settleGit } from './support/git-sync.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { randomId } from '../shared/ids.ts';
import { MULTIPART_THRESHOLD_BYTES, putLargeObject } from '../shared/aws/large-put.ts';

const api = useTestApi();
const server = useGitServer();
let org: TestOrg;
beforeAll(async () => {
  org = await newOrg();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** A valid 64x48 PNG padded with incompressible bytes to `size` (image readers stop at IEND). */
const bigPng = (size: number) => {
  const png = pngFile(64, 48, 7);
  return Buffer.concat([png, randomBytes(size - png.length)]);
};

/** The stored object of a blob: its bytes, and whether it went up in parts (a multipart ETag ends in -<parts>). */
async function storedBlob(hash: string) {
  const out = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: `blobs/${hash}` }));
  return { bytes: Buffer.from(await out.Body!.transformToByteArray()), contentType: out.ContentType, parts: /-(\d+)"?$/.exec(out.ETag ?? '')?.[1] };
}

type FileRecord = { id: string; name: string; contentType: string; size: number; dimensions?: { width: number; height: number }; downloadURL: string };

describe('large blobs', () => {
  it('a Git import of a repository holding a 20 MB image stores it in parts, byte for byte, beside a small one in one PUT', async () => {
    const big = bigPng(20 * 1024 * 1024);
    const small = pngFile(5, 4, 3);
    const name = `large-${randomId(8).toLowerCase()}`;
    await createRepo(server, name, {
      'README.md': '# Home\n\n![Big](.gitbook/assets/big.png) ![Small](.gitbook/assets/small.png)\n',
      '.gitbook/assets/big.png': big,
      '.gitbook/assets/small.png': small,
    });
    const space = await createSpace(api, org);
    const started = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(started.status, JSON.stringify(started.body)).toBe(204);
    const info = await settleGit(api, org.admin.token, space.id);
    expect(info.operations.last, JSON.stringify(info.operations.last)).toMatchObject({ status: 'succeeded' });

    const content = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(content.status).toBe(200);
    const files = Object.fromEntries((content.body.files as FileRecord[]).map((f) => [f.name, f]));
    expect(files['big.png']).toMatchObject({ contentType: 'image/png', size: big.length, dimensions: { width: 64, height: 48 } });
    expect(files['small.png']).toMatchObject({ contentType: 'image/png', size: small.length });

    const stored = await storedBlob(sha256(big));
    expect(stored.bytes.equals(big)).toBe(true);
    expect(stored.contentType).toBe('image/png');
    expect(Number(stored.parts)).toBeGreaterThan(1);
    const storedSmall = await storedBlob(sha256(small));
    expect(storedSmall.bytes.equals(small)).toBe(true);
    expect(storedSmall.parts).toBeUndefined();
    // What a reader downloads is the same bytes.
    const downloaded = Buffer.from(await (await fetch(files['big.png']!.downloadURL)).arrayBuffer());
    expect(sha256(downloaded)).toBe(sha256(big));
  }, 120_000);

  describe('a file uploaded by URL', () => {
    let url: string;
    const body = randomBytes(15 * 1024 * 1024);
    const fileServer = useLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(body));
    beforeAll(() => {
      url = `${fileServer.url}/archive.zip`;
    });

    it('of 15 MB is stored in parts and listed with its size', async () => {
      const space = await createSpace(api, org);
      const cr = await createChangeRequest(api, org, space, { subject: 'Large file' });
      const base = `/spaces/${space.id}/change-requests/${cr.id}`;
      const res = await api.request('POST', `${base}/content`, { token: org.admin.token, body: { changes: [{ operation: 'insert_files', files: [{ name: 'archive.zip', url }] }] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const listed = await api.request('GET', `${base}/content/files`, { token: org.admin.token });
      const file = (listed.body.items as FileRecord[]).find((f) => f.name === 'archive.zip');
      expect(file).toMatchObject({ contentType: 'application/zip', size: body.length });
      const stored = await storedBlob(sha256(body));
      expect(stored.bytes.equals(body)).toBe(true);
      expect(Number(stored.parts)).toBeGreaterThan(1);
      expect(sha256(Buffer.from(await (await fetch(file!.downloadURL)).arrayBuffer()))).toBe(sha256(body));
    }, 60_000);
  });

  it('a multipart upload that fails is aborted: no parts are left in the bucket', async () => {
    const bucket = `large-put-${randomId(8).toLowerCase()}`;
    await s3().send(new CreateBucketCommand({ Bucket: bucket }));
    const deleteBucket = async () => {
      try {
        return (await s3().send(new DeleteBucketCommand({ Bucket: bucket }))).$metadata.httpStatusCode;
      } catch (error) {
        return (error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode;
      }
    };
    // The check sees orphans: a bucket with an upload in progress cannot be deleted.
    const orphan = await s3().send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'orphan' }));
    await s3().send(new UploadPartCommand({ Bucket: bucket, Key: 'orphan', UploadId: orphan.UploadId, PartNumber: 1, Body: Buffer.alloc(1024) }));
    expect(await deleteBucket()).toBe(409);
    await s3().send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'orphan', UploadId: orphan.UploadId }));

    // A first part over the emulator's 11 MiB body limit is refused after the upload began (the second part succeeds).
    const body = randomBytes(13 * 1024 * 1024);
    expect(body.length).toBeGreaterThan(MULTIPART_THRESHOLD_BYTES);
    await expect(putLargeObject({ bucket, key: 'refused', body, contentType: 'application/octet-stream', partBytes: 12 * 1024 * 1024 })).rejects.toThrow();
    await expect(s3().send(new HeadObjectCommand({ Bucket: bucket, Key: 'refused' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await s3().send(new DeleteObjectCommand({ Bucket: bucket, Key: 'refused' }));
    expect(await deleteBucket()).toBe(204);
  }, 60_000);
});
