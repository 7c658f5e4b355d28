import { config } from '../config.ts';

/** API location of a resource path (e.g. '/spaces/abc'). */
export function apiLocation(path: string): string {
  return `${config.apiUrl}/v1${path}`;
}

/** Web app address of a resource path. */
export function appLocation(path: string): string {
  return `${config.appUrl}${path}`;
}
