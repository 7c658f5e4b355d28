import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';

/**
 * Bundle-size and cold-import baseline: a hello-world Hono Lambda that imports and
 * constructs the same SDK clients the service uses (DynamoDB document client, SQS, S3).
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
const sqs = new SQSClient({});
const s3 = new S3Client({});

const app = new Hono();
app.get('/hello', (c) => c.json({ hello: 'world', clients: [db, sqs, s3].map((client) => client.constructor.name) }));

export const handler = handle(app);
