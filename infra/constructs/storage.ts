import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ANSWER_EXPIRY_DAYS, ANSWERS_PREFIX } from '../../shared/http/oversized-answers.ts';

/** How long the parts of an unfinished multipart upload are kept. */
export const INCOMPLETE_UPLOAD_DAYS = Duration.days(1);

/** The content bucket: blobs, manifests and files too large for DynamoDB items. Private, TLS only, kept on stack deletion. */
export class DocsStorage extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      // Unversioned, and every key is permanent (content-addressed blobs, manifests, indexes;
      // unreferenced blobs go through the sweep job) except answers too large for Lambda,
      // fetched once through a 15-minute link (shared/http/oversized-answers.ts). Also expired:
      // the parts of uploads that never completed, which are billed yet invisible.
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: INCOMPLETE_UPLOAD_DAYS },
        { id: 'expire-stored-answers', prefix: ANSWERS_PREFIX, expiration: Duration.days(ANSWER_EXPIRY_DAYS) },
      ],
    });
  }
}
