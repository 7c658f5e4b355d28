import type { RecordLoader } from './loader.ts';
import type { UserItem } from '../db/entities/user.ts';

export interface Caller {
  userId: string;
  /** sha256 of the bearer token in use. */
  tokenHash: string;
}

/** Hono environment shared by every group's app. */
export interface AppEnv {
  Variables: {
    caller: Caller;
    loader: RecordLoader;
    user?: UserItem;
  };
}
