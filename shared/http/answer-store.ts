import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';

/** An answer to keep in the bucket, with the headers that describe its body. */
export interface StoredAnswer {
  key: string;
  body: Buffer;
  contentType: string;
  contentEncoding?: string;
  contentDisposition?: string;
  contentLanguage?: string;
}

/** Writes the answer (never cached by whoever fetches it) and returns a presigned GET of it. */
export async function storeAnswerObject(answer: StoredAnswer, expiresIn: number): Promise<string> {
  await s3().send(new PutObjectCommand({
    Bucket: config.bucketName,
    Key: answer.key,
    Body: answer.body,
    ContentType: answer.contentType,
    ContentEncoding: answer.contentEncoding,
    ContentDisposition: answer.contentDisposition,
    ContentLanguage: answer.contentLanguage,
    CacheControl: 'no-store',
  }));
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: config.bucketName, Key: answer.key }), { expiresIn });
}
