import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { blobKey } from './blobs.ts';

/** How long a presigned download URL works (the public interface: "valid for 1 hour"). */
export const DOWNLOAD_URL_SECONDS = 3600;

/**
 * A presigned GET of an immutable blob (`blobs/<sha256>`), served with the given type and
 * file name: generated exports (PDF) are stored once per content and named per request.
 */
export async function blobDownloadUrl(
  hash: string,
  contentType: string,
  filename: string,
  disposition: 'inline' | 'attachment' = 'inline',
): Promise<string> {
  const safe = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return getSignedUrl(s3(), new GetObjectCommand({
    Bucket: config.bucketName,
    Key: blobKey(hash),
    ResponseContentType: contentType,
    ResponseContentDisposition: `${disposition}; filename="${safe}"`,
  }), { expiresIn: DOWNLOAD_URL_SECONDS });
}
