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
export const userEntity = defineEntity<UserItem>()({
  type: 'user',
  key: ({ userId }: { userId: string }) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  indexes: {
    byEmail: { index: 'gsi1', pk: (a: { email: string }) => `EMAIL#${a.email.toLowerCase()}`, sk: () => 'USER', prefix: 'USER' },
  },
});
