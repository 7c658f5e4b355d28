/**
 * `npm run git:serve -- <repository> [--port 9418] [--push]`: serves a Git repository of this
 * machine over smart HTTP on 127.0.0.1, so that `npm start` can import it (and, with --push, a
 * bare repository can receive exports). Prints the URL to give the import and the
 * EGRESS_ALLOWLIST entry the service needs to reach it.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startGitHttpServer } from './git-http-server.ts';

const usage = 'usage: npm run git:serve -- <repository folder> [--port 9418] [--push]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({ allowPositionals: true, options: { port: { type: 'string', default: '9418' }, push: { type: 'boolean', default: false } } });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (positionals.length !== 1) fail('one repository folder is needed');
const repository = path.resolve(positionals[0]!);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not "${values.port}"`);
if (!existsSync(repository) || !statSync(repository).isDirectory()) fail(`${repository} is not a folder`);

// A work tree is served by its .git folder, a bare repository as it is.
const gitDir = existsSync(path.join(repository, '.git')) ? `${path.basename(repository)}/.git` : existsSync(path.join(repository, 'HEAD')) ? path.basename(repository) : undefined;
if (!gitDir) fail(`${repository} is not a Git repository (no .git folder, not a bare repository)`);

const server = await startGitHttpServer({
  root: path.dirname(repository),
  port,
  // Only this repository; pushes only when asked for.
  authorize: (_request, requestPath) => (requestPath === `/${gitDir}` || requestPath.startsWith(`/${gitDir}/`) ? (values.push ? { user: 'local' } : true) : 'not-found'),
}).catch((error: Error) => fail(`cannot listen on 127.0.0.1:${port}: ${error.message}`));

const url = `${server.url}/${gitDir}`;
const host = new URL(server.url).host;
process.stdout.write([
  `Serving ${repository} over Git smart HTTP${values.push ? ' (pushes accepted)' : ' (read only)'} at ${url}`,
  `Start the service with EGRESS_ALLOWLIST=${host} npm start, then import it:`,
  `  curl -H "$H" -H "$J" -d '{"url":"${url}","ref":"refs/heads/main"}' $API/spaces/$SPACE/git/import`,
  'Ctrl-C stops.',
  '',
].join('\n'));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
