import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { addMember } from '../commands/members/add.ts';
import { createAccessToken } from '../commands/tokens/create.ts';
import { createOrganization } from '../commands/organizations/create.ts';
import { createUser, getUser } from '../commands/users/create.ts';
import { revokeAccessToken, revokeUserTokens } from '../commands/tokens/revoke.ts';
import { listAccessTokens } from '../commands/tokens/list.ts';
import { roles, type Role } from '../http/schemas.ts';
import { chooseLocalStack, readLocalStacks } from './local-stack-file.ts';
import { config } from '../config.ts';
import { usesEmbeddedEmulators } from './aws-target.ts';
import { sweepBlobs } from '../content/blob-sweep.ts';
import { pathParamRule } from '../http/path-params.ts';
import { updateOrganizationBody } from '../../functions/organizations/schemas.ts';

const usage = `Usage: npm run admin -- <command> [options]

  user create --email <email> --name <display name> [--id <id>] [--unverified]
  org create --title <title> --owner <userId> [--id <id>]
  member add --org <orgId> --user <userId> --role <${roles.join('|')}|guest>
  token create --user <userId> [--label <label>]     prints the token once (stored hashed)
  token list --user <userId>                          the user's tokens: label, dates (never the secret)
  token revoke --token <token>
  token revoke --user <userId> [--label <label>]      every active token of the user (of that label)
  blobs sweep                                          deletes blobs no record names, older than
                                                       BLOB_SWEEP_GRACE_HOURS (24); prints the counts

Target: the table named by TABLE_NAME (default docs-service) at the endpoint from
AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_DYNAMODB, or AWS itself with LOCAL_EMULATORS=off.
With neither set, it uses the stack of the running \`npm start\` (each records itself in
.data/local-stacks/); when several run, name one:
  --server <port|URL>                                  or LOCAL_SERVER=<port|URL>, e.g. 8081`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** Options as parseArgs reads them; an unknown option or a missing value is a usage error (exit 2), not a stack trace. */
function readArgs() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        email: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, unverified: { type: 'boolean' },
        title: { type: 'string' }, owner: { type: 'string' }, org: { type: 'string' }, user: { type: 'string' },
        role: { type: 'string' }, label: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' },
        server: { type: 'string' },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
}

const { positionals, values } = readArgs();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (positionals.length < 2) fail('Missing command.');
// `--name Ada Lovelace` unquoted would otherwise store "Ada" and drop the rest without a word.
if (positionals.length > 2) fail(`Unexpected argument: ${positionals[2]} (quote a value that holds spaces: --name "Ada Lovelace")`);

/** The revocation window of the server(s) the CLI writes for: the local server's own, else this environment's. */
let authCacheSeconds = config.authCacheMs / 1000;
const server = values.server ?? process.env.LOCAL_SERVER;
if (usesEmbeddedEmulators()) {
  const choice = chooseLocalStack(readLocalStacks(), server);
  if ('error' in choice) fail(choice.error);
  const local = choice.info;
  authCacheSeconds = local.authCacheSeconds ?? authCacheSeconds;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = local.dynamodbEndpoint;
  process.env.AWS_ENDPOINT_URL_S3 = local.awsEndpoint;
  process.env.TABLE_NAME ??= local.tableName;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
} else if (values.server !== undefined) {
  fail('--server picks a running `npm start`; it does not apply with AWS_ENDPOINT_URL(_DYNAMODB) or LOCAL_EMULATORS=off set.');
}

const need = (name: keyof typeof values): string => {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) fail(`--${name} is required`);
  return value;
};

/**
 * An id the operator chooses must be one the API can name in a path (shared/http/path-params.ts);
 * an organization's also names its default hostname <id>.<domain>, so it must be a DNS label.
 */
function chosenId(kind: 'user' | 'org'): string | undefined {
  if (values.id === undefined) return undefined;
  const rule = pathParamRule('id');
  const value = values.id;
  if (kind === 'org' && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(value)) {
    fail('--id must be 1 to 63 letters, digits or inner hyphens (it names the organization\'s hostname <id>.<domain>)');
  }
  if (value.length === 0 || value.length > rule.max || !rule.pattern.test(value)) {
    fail(`--id must be 1 to ${rule.max} ${rule.alphabet}`);
  }
  return value;
}

/** The organization's title under the rule PATCH /orgs/{id} applies (trimmed, 2 to 100 characters). */
function organizationTitle(): string {
  const result = v.safeParse(updateOrganizationBody, { title: need('title') });
  if (!result.success) fail(`--title ${result.issues[0].message}`);
  return result.output.title!;
}

const command = `${positionals[0]} ${positionals[1]}`;

/** A user named by an option; a missing one fails the command (exit 1) as other missing records do, not as a usage error. */
async function requireUser(id: string) {
  const user = await getUser(id);
  if (!user) {
    console.error(`${command} failed: No user ${id}`);
    process.exit(1);
  }
  return user;
}
try {
switch (command) {
  case 'user create': {
    const email = need('email');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) fail('--email is not an email address');
    // As SSO sign-in keeps them (shared/sso/identity.ts): at most 100 characters.
    const displayName = need('name').trim();
    if (displayName.length === 0 || displayName.length > 100) fail('--name must be 1 to 100 characters');
    const user = await createUser({ email, displayName, emailVerified: !values.unverified, id: chosenId('user') });
    console.log(JSON.stringify({ id: user.id, email: user.email, displayName: user.displayName }, null, 2));
    break;
  }
  case 'org create': {
    const title = organizationTitle();
    const id = chosenId('org');
    const org = await createOrganization({ title, owner: await requireUser(need('owner')), id });
    console.log(JSON.stringify({ id: org.id, title: org.title, hostname: org.hostname }, null, 2));
    break;
  }
  case 'member add': {
    const roleName = need('role');
    if (roleName !== 'guest' && !(roles as readonly string[]).includes(roleName)) fail(`--role must be one of ${roles.join(', ')}, guest`);
    const role = roleName === 'guest' ? null : (roleName as Role);
    const member = await addMember(need('org'), await requireUser(need('user')), role);
    console.log(JSON.stringify({ organization: member.orgId, user: member.userId, role: member.role }, null, 2));
    break;
  }
  case 'token create': {
    const user = await requireUser(need('user'));
    const token = await createAccessToken(user.id, values.label ?? 'admin cli');
    console.log(token);
    break;
  }
  case 'token list': {
    const user = await requireUser(need('user'));
    const tokens = await listAccessTokens(user.id);
    console.log(JSON.stringify(tokens.map((t) => ({
      label: t.label, createdAt: t.createdAt,
      ...(t.expiresAt !== undefined ? { expiresAt: new Date(t.expiresAt * 1000).toISOString() } : {}),
      ...(t.revokedAt ? { revokedAt: t.revokedAt } : {}),
    })), null, 2));
    break;
  }
  case 'token revoke': {
    // By secret, or every active token of a user (optionally one label's) when the secrets are lost.
    if (values.token !== undefined && values.user !== undefined) fail('--token and --user cannot be combined');
    let revoked: string;
    if (values.user !== undefined) {
      const user = await requireUser(need('user'));
      const count = await revokeUserTokens(user.id, values.label);
      if (count === 0) {
        console.log(`no active token of ${user.id}${values.label !== undefined ? ` labelled ${values.label}` : ''}; nothing to revoke`);
        break;
      }
      revoked = `revoked ${count} token${count === 1 ? '' : 's'} of ${user.id}${values.label !== undefined ? ` labelled ${values.label}` : ''}`;
    } else {
      if (values.token === undefined) fail('--token <token> or --user <userId> is required');
      if (!await revokeAccessToken(need('token'))) {
        console.error('token revoke failed: no access token matches the one given (nothing was revoked)');
        process.exit(1);
      }
      revoked = 'revoked';
    }
    // A server keeps what authentication read for AUTH_CACHE_SECONDS (shared/http/auth-cache.ts),
    // and this process cannot clear another's cache.
    console.log(authCacheSeconds === 0
      ? `${revoked}; a running server refuses it from its next request (AUTH_CACHE_SECONDS=0)`
      : `${revoked}; a running server stops accepting it within ${authCacheSeconds} s (AUTH_CACHE_SECONDS, its authentication cache)`);
    break;
  }
  case 'blobs sweep': {
    // The job the daily schedule sends to the jobs worker, run here (BUCKET_NAME names the bucket).
    console.log(JSON.stringify(await sweepBlobs(), null, 2));
    break;
  }
  default:
    fail(`Unknown command: ${command}`);
}
} catch (error) {
  console.error(`${command} failed: ${(error as Error).message}`);
  process.exit(1);
}
