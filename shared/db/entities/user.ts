import { defineEntity } from '../entity.ts';

export interface UserItem {
  id: string;
  displayName: string;
  email: string;
  /** Join by email domain only trusts verified addresses. */
  emailVerified: boolean;
  photoURL?: string;
  createdAt: string;
  updatedAt: string;
}

/** USER#<id> / USER; email lookup through gsi1 EMAIL#<email>. */
export const userEntity = defineEntity<UserItem, { userId: string }>({
  type: 'user',
  key: ({ userId }) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  indexes: (u) => ({ gsi1: { pk: `EMAIL#${u.email.toLowerCase()}`, sk: 'USER' } }),
});
