import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createBareApp, createDiagApp } from './apps.ts';

/**
 * Server process of the API benchmark (started by run.ts with the emulator endpoints in
 * its environment). Serves, each on its own 127.0.0.1 port with @hono/node-server:
 * - local: createLocalApp(), the whole API as `npm start` serves it;
 * - bare: the bare Hono GetItem app (baseline);
 * - spaces: the spaces group app alone (no local root router in front);
 * - diag: diagnostic routes on the service's group app (see apps.ts).
 * Every server lives in this one process, so all targets run in the same configuration.
 */
const { createLocalApp } = await import('../../shared/local/server.ts');
const { app: spacesApp } = await import('../../functions/spaces/app.ts');

type Fetch = (request: Request) => Response | Promise<Response>;

function listen(fetch: Fetch): Promise<ServerType> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server));
  });
}

const servers = {
  local: await listen(createLocalApp().fetch),
  bare: await listen(createBareApp().fetch),
  spaces: await listen(spacesApp.fetch),
  diag: await listen(createDiagApp().fetch),
};
const ports = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, (s.address() as AddressInfo).port]));

function stop(): void {
  for (const s of Object.values(servers)) s.close();
  process.exit(0);
}
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message === 'stop') stop();
});
process.send!({ ready: true, ports, pid: process.pid, node: process.version });
