import providers from 'email-providers/all.json' with { type: 'json' };

/**
 * Domains of public email providers (gmail.com, outlook.com, qq.com, ...: the maintained list of
 * the `email-providers` package, ~8,700 domains). Anyone can get an address there, so such a
 * domain can't stand for an organization: claiming one would offer the organization to every
 * user of that provider (GET /email-domains/{d}/orgs) and let any of them join it.
 */
const publicDomains = new Set<string>(providers);

export function isPublicEmailDomain(domain: string): boolean {
  return publicDomains.has(domain.toLowerCase());
}
