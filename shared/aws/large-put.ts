import { Upload } from '@aws-sdk/lib-storage';
import { s3 } from './clients.ts';

/**
 * Objects at or above this size are written by a multipart upload instead of one PUT: the
 * local S3 emulator refuses request bodies over 11 MiB, and in AWS one PUT of a large body
 * is one long request that fails (and is retried) as a whole. 8 MiB also keeps every part
 * above S3's 5 MiB minimum.
 */
export const MULTIPART_THRESHOLD_BYTES = 8 * 1024 * 1024;
/** Part size: bounded, so a part is one request of a known size whatever the object's size. */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;
/** Parts in flight at once. The parts are views of the caller's bytes, so this bounds requests, not copies. */
export const MULTIPART_QUEUE = 4;

export interface LargePut {
  bucket: string;
  key: string;
  /** The whole object, already in memory (its hash names it): parts are subarrays of it, not copies. */
  body: Uint8Array;
  contentType: string;
  /** MULTIPART_PART_BYTES unless given (tests use it to make the emulator refuse a part). */
  partBytes?: number;
}

/**
 * Writes an object by S3 multipart upload (lib-storage's Upload). A failed upload is aborted
 * (leavePartsOnError is false), so its parts do not linger, billed and invisible, in the bucket.
 */
export async function putLargeObject({ bucket, key, body, contentType, partBytes = MULTIPART_PART_BYTES }: LargePut): Promise<void> {
  const upload = new Upload({
    client: s3(),
    params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType },
    partSize: partBytes,
    queueSize: MULTIPART_QUEUE,
    leavePartsOnError: false,
  });
  await upload.done();
}
