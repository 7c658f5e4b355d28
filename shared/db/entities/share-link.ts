import { defineEntity } from '../entity.ts';
import { sitePartition } from './site-partition.ts';

export interface ShareLinkItem {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  /** sha256 of the secret: what a reader's `share` key is checked against. */
  secretHash: string;
  /** The secret sealed with AES-256-GCM (shared/commands/sites/share-links.ts): iv.tag.ciphertext, base64url. */
  sealedSecret: string;
  createdAt: string;
  updatedAt: string;
}

/** SITE#<site> / SHARELINK#<id>: in the site's partition, deleted with it. */
export const shareLinkEntity = defineEntity<ShareLinkItem>()({
  type: 'share-link',
  key: ({ siteId, shareLinkId }: { siteId: string; shareLinkId: string }) => ({ pk: sitePartition(siteId), sk: `SHARELINK#${shareLinkId}` }),
});
