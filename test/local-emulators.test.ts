import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type Emulators } from '../shared/local/emulators.ts';

/** This machine's own addresses other than loopback (where another machine would reach it). */
const outsideAddresses = Object.values(networkInterfaces()).flat()
  .filter((a) => a && !a.internal && a.family === 'IPv4')
  .map((a) => a!.address);

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('the embedded emulators (npm start, tests)', () => {
  let emulators: Emulators;
  beforeAll(async () => {
    emulators = await startEmulators();
  }, 60_000);
  afterAll(async () => {
    await emulators?.stop();
  });

  // DynamoDB Local holds token hashes and takes any credentials; fauxqs serves every blob and
  // queue unsigned: neither may be reachable from another machine.
  it.skipIf(outsideAddresses.length === 0)('listen on 127.0.0.1 only: refused on the machine\'s other addresses', async () => {
    for (const [name, endpoint] of [['DynamoDB Local', emulators.dynamodbEndpoint], ['fauxqs (SQS, S3)', emulators.awsEndpoint]] as const) {
      const port = Number(new URL(endpoint).port);
      expect(await accepts('127.0.0.1', port), `${name} on 127.0.0.1`).toBe(true);
      for (const address of outsideAddresses) expect(await accepts(address, port), `${name} on ${address}:${port}`).toBe(false);
    }
  });
});
