import { gitSyncProviders, type GitSyncProvider } from './schemas/git-info.ts';

/**
 * The provider of a repository URL, among the documented ones: GitHub for github.com hosts,
 * GitLab for any other host (self-managed Git hosts are GitLab's case in the public interface).
 */
export function gitProviderOf(url: string): GitSyncProvider {
  return new URL(url).hostname.endsWith('github.com') ? 'github' : 'gitlab';
}

/** A stored provider as documented (records written before the documented set named others 'git'). */
export function documentedProvider(stored: { installationProvider?: string; url?: string } | undefined): GitSyncProvider {
  const provider = stored?.installationProvider;
  if ((gitSyncProviders as readonly string[]).includes(provider ?? '')) return provider as GitSyncProvider;
  return stored?.url ? gitProviderOf(stored.url) : 'github';
}

/** What a synced space stores of its Git sync (shared/git/sync.ts writes it). */
export interface StoredGitSync {
  repoName?: string;
  installationProvider?: string;
  integration?: string;
  url?: string;
  updatedAt?: string;
}

/**
 * A space's `gitSync` (the public `GitSyncState`): Git sync is set up per space, so its
 * installation is the space's own (`installationId` = the space id, as the git info says),
 * active once the space has synced (which is when this is stored).
 */
export function presentSpaceGitSync(spaceId: string, stored: StoredGitSync) {
  return {
    installationId: spaceId,
    installationStatus: 'active' as const,
    installationProvider: documentedProvider(stored),
    ...(stored.repoName !== undefined ? { repoName: stored.repoName } : {}),
    ...(stored.integration !== undefined ? { integration: stored.integration } : {}),
    ...(stored.url !== undefined ? { url: stored.url } : {}),
    ...(stored.updatedAt !== undefined ? { updatedAt: stored.updatedAt } : {}),
  };
}
