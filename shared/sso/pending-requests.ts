import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { nowEpochSeconds, nowIso } from '../clock.ts';
import { samlRequestEntity } from '../db/entities/saml-request.ts';
import type { SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { PENDING_REQUEST_TTL_SECONDS } from './settings.ts';
import { run } from '../db/writes.ts';

/**
 * node-saml's request-id cache, kept in the table so any Lambda instance can answer the
 * response: `saveAsync` when an AuthnRequest is sent, `getAsync` / `removeAsync` when a
 * response names it in InResponseTo. Scoped to one provider: another provider's request
 * id is unknown here. Past its TTL an item reads as absent (emulators do not delete).
 * `onSaved` learns the id of a request sent (startURL binds it to the browser).
 */
export function pendingRequests(provider: Pick<SAMLProviderItem, 'id' | 'orgId'>, onSaved?: (requestId: string) => void): CacheProvider {
  const key = (requestId: string) => ({ requestId, providerId: provider.id });
  return {
    async saveAsync(requestId: string, issuedAt: string): Promise<CacheItem> {
      await run(samlRequestEntity.create(key(requestId), {
        requestId, providerId: provider.id, orgId: provider.orgId, issuedAt,
        expiresAt: nowEpochSeconds() + PENDING_REQUEST_TTL_SECONDS,
      }));
      onSaved?.(requestId);
      return { value: issuedAt, createdAt: Date.parse(nowIso()) };
    },
    async getAsync(requestId: string): Promise<string | null> {
      if (!requestId) return null;
      const item = await samlRequestEntity.get(key(requestId), { consistent: true });
      if (!item) return null;
      return item.expiresAt > nowEpochSeconds() ? item.issuedAt : null;
    },
    async removeAsync(requestId: string | null): Promise<string | null> {
      if (!requestId) return null;
      return (await run(samlRequestEntity.delete(key(requestId))))?.issuedAt ?? null;
    },
  };
}
