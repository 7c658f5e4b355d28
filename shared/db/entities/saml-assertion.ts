/**
 * Replay store of SAML assertions: the id of every accepted assertion is kept until the
 * assertion itself expires (plus clock skew), so the same assertion signs nobody in twice.
 */
import { defineEntity } from '../entity.ts';

export interface SAMLAssertionItem {
  providerId: string;
  assertionId: string;
  usedAt: string;
  /** TTL attribute (epoch seconds): when the assertion could no longer be accepted anyway. */
  expiresAt: number;
}

/** SAMLASSERTION#<provider>#<assertion id> / SAMLASSERTION: one conditional Put accepts an assertion once. */
export const samlAssertionEntity = defineEntity<SAMLAssertionItem>()({
  type: 'saml-assertion',
  key: ({ providerId, assertionId }: { providerId: string; assertionId: string }) => ({ pk: `SAMLASSERTION#${providerId}#${assertionId}`, sk: 'SAMLASSERTION' }),
});
