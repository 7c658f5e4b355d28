import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../aws/clients.ts';
import { config } from '../../config.ts';
import { imageVariantKey } from '../blobs.ts';

/** True when S3 answered that the key does not exist (the caller may list the bucket, so it is a 404, not a 403). */
export function isMissingObject(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** The stored WebP variant of an image blob at a width, or undefined while the job has not made it. Read-only: the reader uses it. */
export async function readImageVariant(sourceHash: string, width: number): Promise<Uint8Array | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: imageVariantKey(sourceHash, width) }));
    return await out.Body!.transformToByteArray();
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}
