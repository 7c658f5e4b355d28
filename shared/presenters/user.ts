import type { UserItem } from '../db/entities/user.ts';
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
