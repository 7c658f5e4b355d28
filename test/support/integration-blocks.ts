import { buildFixture } from '../fixtures/integrations/build.ts';
import type { TestApi, TestOrg } from './api.ts';
import { installInOrg, integrationClient, uniqueName } from './integrations.ts';

/**
 * Integration blocks as a published page shows them (test/reader-integration-blocks*.test.ts):
 * the `blocks` fixture (test/fixtures/integrations/blocks, answering `ui_render`) published
 * twice, once installed in the organization and once not.
 */

export interface BlockIntegrations {
  /** Installed in the organization: its blocks are rendered. */
  installed: string;
  /** Published, not installed: its blocks show the integration's name. */
  idle: string;
}

/** Names no other test uses, for publishBlockIntegrations. */
export const blockIntegrationNames = (): BlockIntegrations => ({ installed: uniqueName('blocks'), idle: uniqueName('blocks-idle') });

/** A card block of the integration `name`, as a page's markdown writes it. */
export const block = (name: string, props: string) => `{% @${name}/card ${props} %}`;

/** Publishes the fixture as both integrations, private to `org`, and installs `installed` in `org`. */
export async function publishBlockIntegrations(api: TestApi, org: TestOrg, names: BlockIntegrations, extra: { contentSecurityPolicy?: string } = {}) {
  const script = await buildFixture('blocks');
  for (const name of [names.installed, names.idle]) {
    await integrationClient(api, org.admin.token).integrations.publishIntegration(name, {
      title: 'Blocks', description: 'Draws a block', organization: org.id, visibility: 'private', script, scopes: [], ...extra,
    } as never);
  }
  await installInOrg(api, org, names.installed);
}

/**
 * A published page once its blocks are rendered: a first view on a busy machine may pass the
 * reader's deadline and show the fallback, while the runtime still finishes and caches the render.
 */
export async function renderedPage(url: string): Promise<{ res: Response; html: string }> {
  for (const started = Date.now(); ;) {
    const res = await fetch(url);
    const html = await res.text();
    if (!html.includes('integration-fallback') || Date.now() - started > 30_000) return { res, html };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
