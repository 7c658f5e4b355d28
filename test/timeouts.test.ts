import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { useTestApi, newOrg } from './support/api.ts';
import { LOCAL_SERVER_LIMITS } from '../shared/local/http-server.ts';

const api = useTestApi();

/**
 * Opens a raw connection, writes `head` at once and then `trickle` one byte per second;
 * resolves with what the server sent and when the connection ended.
 */
function slowClient(head: string, trickle: string): Promise<{ response: string; afterMs: number }> {
  const { port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let response = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < trickle.length && socket.writable) socket.write(trickle[i++]!);
    }, 1000);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk) => (response += chunk));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ response, afterMs: Date.now() - started });
    });
    socket.on('error', (error) => {
      clearInterval(timer);
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') resolve({ response, afterMs: Date.now() - started });
      else reject(error);
    });
  });
}

describe('local server time limits', () => {
  it('cuts a body trickled at 1 byte/s and headers that never end with 408, while other requests go on', { timeout: 40_000 }, async () => {
    const org = await newOrg();
    const body = JSON.stringify({ title: 'x'.repeat(200) });
    // The trickled body is the second request of a keep-alive connection whose first was answered.
    const slowBody = slowClient(
      `GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.admin.token}\r\n\r\n`
      + `POST /v1/orgs/${org.id}/spaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.admin.token}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    const slowHeaders = slowClient('GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\n', `X-Slow: ${'y'.repeat(100)}`);

    // Meanwhile the server answers everyone else at once.
    await new Promise((r) => setTimeout(r, 3000));
    const before = Date.now();
    const user = await api.request('GET', '/user', { token: org.admin.token });
    expect(user.status).toBe(200);
    expect(Date.now() - before).toBeLessThan(2000);

    const [bodyCut, headersCut] = await Promise.all([slowBody, slowHeaders]);
    expect(bodyCut.response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(headersCut.response).toMatch(/^HTTP\/1\.1 408 /);
    for (const [cut, limit] of [[bodyCut, LOCAL_SERVER_LIMITS.requestTimeoutMs], [headersCut, LOCAL_SERVER_LIMITS.headersTimeoutMs]] as const) {
      const timeout = cut.response.slice(cut.response.indexOf('HTTP/1.1 408 Request Timeout\r\n'));
      expect(timeout).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(timeout).toMatch(/\r\nConnection: close\r\n/i);
      const json = JSON.parse(timeout.slice(timeout.indexOf('\r\n\r\n') + 4));
      expect(json).toEqual({ error: { code: 408, message: expect.stringMatching(/^request: was not received in time/) } });
      expect(cut.afterMs).toBeGreaterThanOrEqual(limit - 500);
      expect(cut.afterMs).toBeLessThan(limit + 2500);
    }
    // Nothing was created from the half-received body.
    const spaces = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
    expect(spaces.body.items).toEqual([]);
  });
});

describe('answers before the whole body arrived', () => {
  it('a 413 past the body limit closes the connection (Connection: close), so a keep-alive client does not reuse it', async () => {
    const org = await newOrg();
    const { port } = new URL(api.url);
    const size = 7 * 1024 * 1024;
    // The body is announced in full but sent only in part: the server answers 413 from Content-Length alone.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let response = '';
      socket.setEncoding('utf8');
      socket.on('connect', () => socket.write(
        `POST /v1/orgs/${org.id}/spaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.admin.token}\r\n`
        + `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n{"title":"${'x'.repeat(64 * 1024)}`,
      ));
      socket.on('data', (chunk) => (response += chunk));
      socket.on('close', () => resolve(response));
      socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(response) : reject(error)));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    // A request whose body arrived whole keeps its connection alive.
    const small = await fetch(`${api.url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Fine' }) });
    expect(small.status).toBe(201);
    expect(small.headers.get('connection')).not.toBe('close');
  });
});
