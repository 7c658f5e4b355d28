import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Diagnostic companion of hello-handler.ts: the same hello-world Hono Lambda with only
 * the DynamoDB document client, i.e. the SDK footprint the group bundles have today.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });

const app = new Hono();
app.get('/hello', (c) => c.json({ hello: 'world', clients: [db].map((client) => client.constructor.name) }));

export const handler = handle(app);
