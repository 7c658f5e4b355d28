import { Agent, request } from 'node:http';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sequential keep-alive HTTP/1.1 client on node:http (one socket per origin): the
 * lightest built-in client, so client overhead adds as little as possible to latencies.
 */
export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, headers: Record<string, string> = {}) {
    this.baseUrl = baseUrl;
    this.headers = headers;
  }

  async send(method: string, path: string, body?: unknown): Promise<HttpResult> {
    const res = await this.sendRaw(method, path, body);
    return { ...res, body: res.body.toString('utf8') };
  }

  /** The body as received (no decoding: what a proxy or a streaming client pays). */
  sendRaw(method: string, path: string, body?: unknown): Promise<Omit<HttpResult, 'body'> & { body: Buffer }> {
    const url = new URL(path, this.baseUrl);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { ...this.headers };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${method} ${url}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  get(path: string): Promise<HttpResult> {
    return this.send('GET', path);
  }

  close(): void {
    this.agent.destroy();
  }
}
