import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../aws/clients.ts';
import { config } from '../../config.ts';
import { imageVariantKey } from '../blobs.ts';
import { isMissingObject } from './variant-read.ts';

/** Whether the variant is stored already (the worker skips it: variants never change, their key names the source and width). */
export async function hasImageVariant(sourceHash: string, width: number): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: imageVariantKey(sourceHash, width) }));
    return true;
  } catch (error) {
    if (isMissingObject(error)) return false;
    throw error;
  }
}

export async function putImageVariant(sourceHash: string, width: number, webp: Uint8Array): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: imageVariantKey(sourceHash, width), Body: webp, ContentType: 'image/webp' }));
}
