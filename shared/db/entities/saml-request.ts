/**
 * AuthnRequests this service sent and not yet answered (SP-initiated SAML login): the
 * assertion consumer accepts a response only `InResponseTo` one of them, once, for the
 * provider that sent it. Expired items are removed by the table's TTL and ignored on read.
 */
import { defineEntity } from '../entity.ts';

export interface SAMLRequestItem {
  /** The AuthnRequest's ID attribute. */
  requestId: string;
  providerId: string;
  orgId: string;
  /** IssueInstant of the request (ISO). */
  issuedAt: string;
  /** TTL attribute (epoch seconds). */
  expiresAt: number;
}

/** SAMLREQUEST#<request id> / SAMLPROVIDER#<provider>: one GetItem scoped to the provider that sent it. */
export const samlRequestEntity = defineEntity<SAMLRequestItem>()({
  type: 'saml-request',
  key: ({ requestId, providerId }: { requestId: string; providerId: string }) => ({ pk: `SAMLREQUEST#${requestId}`, sk: `SAMLPROVIDER#${providerId}` }),
});
