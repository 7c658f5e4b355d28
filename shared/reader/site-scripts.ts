import { installationEntity, integrationEntity, type InstallationItem, type IntegrationItem } from '../db/entities/integration.ts';
import { readerBasePath, readerBaseUrl } from './site.ts';

/**
 * Published-site scripts (how analytics and chat widgets reach published sites): an
 * integration with the `site:script:inject` scope, installed in the site's organization for
 * all its sites, answers the `fetch_published_script` event with JavaScript. Pages load it
 * from the reader (`<script async src>` on the site's own origin, so rendering never waits
 * for it) and their CSP gains the integration's `contentSecurityPolicy`
 * (shared/reader/security-headers.ts). The script is cached per site and integration version.
 */

/** Scopes of `@gitbook/api`'s IntegrationScope: inject a script; that script may set cookies. */
export const SCRIPT_INJECT_SCOPE = 'site:script:inject';
export const SCRIPT_COOKIES_SCOPE = 'site:script:cookies';
/** The longest a visitor's script request waits for the integration (the runtime's wall limit otherwise). */
export const SCRIPT_WAIT_MS = 3_000;
/** How long a fetched script is served from the cache before the integration is asked again. */
export const SCRIPT_CACHE_SECONDS = 60 * 60;
/** How long a failed fetch is remembered (a no-op script is served meanwhile). */
export const SCRIPT_FAILURE_CACHE_SECONDS = 60;
/** Size of a published script at most (it is cached in one table item): larger answers are refused by the runtime. */
export const SCRIPT_MAX_BYTES = 256 * 1024;
/** Scripts per page at most (installations of the organization, in integration name order). */
export const MAX_SITE_SCRIPTS = 20;

export interface SiteScript {
  integration: IntegrationItem & { scriptBlob: string };
  installation: InstallationItem;
  /** Path of the script under the reader (versioned, so caches drop it when the integration is published again). */
  path: string;
  /** Absolute URL, as the published site profile's `scripts[].script` gives it. */
  url: string;
  /** The integration's policy as one CSP string (its object form joined). */
  contentSecurityPolicy?: string;
  cookies: boolean;
}

export const scriptPath = (siteId: string, name: string, version: number) =>
  `${readerBasePath(siteId)}/~integrations/${encodeURIComponent(name)}/script.js?v=${version}`;

/** `IntegrationContentSecurityPolicy` (a string, or directives to sources) as one policy string. */
export function policyText(policy: unknown): string | undefined {
  if (typeof policy === 'string') return policy.trim() || undefined;
  if (policy && typeof policy === 'object') {
    const text = Object.entries(policy).filter(([, v]) => typeof v === 'string').map(([k, v]) => `${k} ${v as string}`).join('; ');
    return text || undefined;
  }
  return undefined;
}

/** The scripts a site's pages load: one per eligible installation in its organization. */
export async function siteScripts(site: { id: string; orgId: string }): Promise<SiteScript[]> {
  const installations = (await installationEntity.query.byOrg({ orgId: site.orgId }).all())
    .filter((i) => i.status === 'active' && i.site_selection === 'all');
  const scripts: SiteScript[] = [];
  for (const installation of installations) {
    const integration = await integrationEntity.get({ name: installation.integrationName });
    if (!integration?.scriptBlob || !integration.scopes.includes(SCRIPT_INJECT_SCOPE)) continue;
    const path = scriptPath(site.id, integration.name, integration.version);
    const policy = policyText(integration.contentSecurityPolicy);
    scripts.push({
      integration: { ...integration, scriptBlob: integration.scriptBlob }, installation, path,
      url: `${readerBaseUrl(site.id)}${path.slice(readerBasePath(site.id).length)}`,
      ...(policy ? { contentSecurityPolicy: policy } : {}),
      cookies: integration.scopes.includes(SCRIPT_COOKIES_SCOPE),
    });
    if (scripts.length >= MAX_SITE_SCRIPTS) break;
  }
  return scripts.sort((a, b) => a.integration.name.localeCompare(b.integration.name));
}
