import { defineEntity } from '../entity.ts';
import { integrationPartition } from './integration.ts';

/**
 * An integration block's ContentKit render (`ui_render`), or its failure: written by the
 * integration runtime, read by the reader (shared/reader/integration-blocks.ts).
 */
export interface CachedBlockRender {
  /** The integration's answer (ContentKitRenderOutput JSON), as it sent it: the reader validates it. */
  body?: string;
  fetchedAt: number;
  /** Epoch ms after which the integration is asked again (its Cache-Control max-age, bounded). */
  freshUntil: number;
  failed: boolean;
  /** TTL (epoch seconds): a week after `freshUntil`, so renders of old props and versions leave the table. */
  expiresAt: number;
}

/**
 * INTEGRATION#<name> / BLOCK-RENDER#<version>#<hash of space, block and props>: publishing a new
 * version, or editing the block's props, is another entry.
 */
export const blockRenderCacheEntity = defineEntity<CachedBlockRender>()({
  type: 'integration-block-render',
  key: ({ name, version, hash }: { name: string; version: number; hash: string }) => ({ pk: integrationPartition(name), sk: `BLOCK-RENDER#${version}#${hash}` }),
});
