import { randomId } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { AlreadyExists } from '../../db/errors.ts';
import { conflict } from '../../http/errors.ts';
import { userEntity, type UserItem } from '../../db/entities/user.ts';

/**
 * Accounts as the admin CLI, the local bootstrap, SSO sign-in and tests create them; their
 * tokens, organizations and memberships are tokens/, organizations/ and members/. An id
 * that is taken is a 409 "User <id> already exists" (as organizations/create.ts says it).
 * An email that another account has is a 409 too: SSO sign-in finds its account by email
 * (shared/commands/sso/login.ts), so two accounts with one email would make it pick either.
 */
export async function createUser(input: { displayName: string; email: string; emailVerified?: boolean; id?: string }): Promise<UserItem> {
  const holder = (await userEntity.query.byEmail({ email: input.email }).page({ limit: 1 })).items[0];
  if (holder) throw conflict(`User ${holder.id} already has the email ${holder.email}`);
  const now = nowIso();
  const user: UserItem = {
    id: input.id ?? randomId(),
    displayName: input.displayName,
    email: input.email,
    emailVerified: input.emailVerified ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await run(userEntity.create({ userId: user.id }, user)).catch((error: unknown) => {
    throw error instanceof AlreadyExists ? conflict(`User ${user.id} already exists`) : error;
  });
  return user;
}

export async function getUser(userId: string): Promise<UserItem | undefined> {
  return userEntity.get({ userId });
}
