import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { blobKey } from './blobs.ts';
import type { ManifestFile } from './types.ts';

/** A file's bytes are an immutable blob: a presigned GET of it, named and typed as the file. */
export async function fileDownloadUrl(file: ManifestFile): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({
    Bucket: config.bucketName,
    Key: blobKey(file.blob),
    ResponseContentType: file.contentType,
    ResponseContentDisposition: `inline; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`,
  }), { expiresIn: 3600 });
}
