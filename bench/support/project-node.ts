import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Node the project runs on, for the processes a benchmark starts (servers, workers, cold
 * imports): node_modules/.bin/node, the `node` devDependency, else this process's node.
 */
export function projectNodeBinary(): string {
  const local = join(projectRoot, 'node_modules', '.bin', 'node');
  return existsSync(local) ? realpathSync(local) : process.execPath;
}

/** The version package.json's `node` devDependency pins (what `npm run` puts first on the PATH). */
export function projectNodeVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { devDependencies: { node: string } }).devDependencies.node;
}
