import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../client.ts';
import { config } from '../../config.ts';
import { defineEntity } from '../entity.ts';
import { ENTITY_TYPE, TTL_ATTRIBUTE } from '../table.ts';

/** What a counter counts requests of: a token, or a client address (API failures, reader). */
export type RateLimitScope = 'token' | 'address' | 'reader' | 'sso' | 'integration';

export interface RateLimitCounterItem {
  /** Requests counted in this window so far. */
  count: number;
  /** Epoch seconds after which the window is over and DynamoDB may remove the counter. */
  expiresAt: number;
}

/** The prefix every counter key starts with (the reader's IAM policy allows writes to these keys only). */
export const RATE_LIMIT_KEY_PREFIX = 'RATE#';

/**
 * RATE#<scope>#<subject>#<window start, epoch seconds> / RATE: one fixed one-minute window
 * of one subject (a token hash, a client address). Each window is its own partition, so a
 * busy subject never makes a hot key of another, and the TTL attribute removes old windows.
 */
export const rateLimitCounterEntity = defineEntity<RateLimitCounterItem>()({
  type: 'rate-limit-counter',
  key: ({ scope, subject, windowStart }: { scope: RateLimitScope; subject: string; windowStart: number }) => ({ pk: `${RATE_LIMIT_KEY_PREFIX}${scope}#${subject}#${windowStart}`, sk: 'RATE' }),
});

/**
 * Counts one request (or `by` requests an instance counted since its last write) in a window
 * with an atomic ADD and returns the count including them, so concurrent requests on any
 * number of Lambda instances each see a distinct count.
 */
export async function countRequest(args: { scope: RateLimitScope; subject: string; windowStart: number; expiresAt: number; by?: number }): Promise<number> {
  const out = await db().send(new UpdateCommand({
    TableName: config.tableName,
    Key: rateLimitCounterEntity.key(args),
    UpdateExpression: 'ADD #count :one SET #type = if_not_exists(#type, :type), #ttl = if_not_exists(#ttl, :ttl)',
    ExpressionAttributeNames: { '#count': 'count', '#type': ENTITY_TYPE, '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':one': args.by ?? 1, ':type': rateLimitCounterEntity.type, ':ttl': args.expiresAt },
    ReturnValues: 'UPDATED_NEW',
  }));
  return Number(out.Attributes?.count ?? 1);
}
