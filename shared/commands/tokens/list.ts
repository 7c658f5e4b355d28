import { tokenEntity, type TokenItem } from '../../db/entities/token.ts';

/** A user's access tokens, oldest first (gsi1 USER#<user>#TOKENS); secrets are never stored. */
export async function listAccessTokens(userId: string): Promise<TokenItem[]> {
  return tokenEntity.query.byUser({ userId }).all();
}
