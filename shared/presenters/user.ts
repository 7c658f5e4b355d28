import type { UserItem } from '../db/entities/user.ts';
import { integrationOfUserId } from '../integrations/installation-user.ts';
import { apiLocation } from './urls.ts';
import type { UserOutput } from './schemas/user.ts';

export function presentUser(user: UserItem): UserOutput {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: apiLocation(`/users/${user.id}`) },
  };
}

/**
 * A user without a record still presents: one whose record is gone (an empty profile), or an
 * integration installation acting through its token (shown by the integration's name).
 */
export function absentUser(id: string, at: string): UserItem {
  return { id, displayName: integrationOfUserId(id) ?? '', email: '', emailVerified: false, createdAt: at, updatedAt: at };
}
