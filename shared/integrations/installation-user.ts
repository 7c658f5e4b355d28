/**
 * The user an integration installation acts as: its installation tokens authenticate as
 * `integration:<integration name>:<installation id>` (the `createdBy` of what it writes). No
 * user record exists for it; presenters show it by the integration's name.
 */
const PREFIX = 'integration:';

export const installationUserId = (name: string, installationId: string) => `${PREFIX}${name}:${installationId}`;

/** The integration's name when `userId` is an installation's, else undefined. */
export function integrationOfUserId(userId: string): string | undefined {
  if (!userId.startsWith(PREFIX)) return undefined;
  const rest = userId.slice(PREFIX.length);
  const colon = rest.lastIndexOf(':');
  return colon > 0 ? rest.slice(0, colon) : undefined;
}
