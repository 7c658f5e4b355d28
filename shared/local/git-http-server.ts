/**
 * Git's smart HTTP protocol on 127.0.0.1: a Node http server in front of `git http-backend`
 * (CGI) serving the repositories under `root`. The Git worker clones shallow, which only the
 * smart protocol serves (not `git daemon`'s git:// nor dumb HTTP). Used by `npm run git:serve`
 * (a repository on your machine, for local imports) and by the tests' Git server.
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';

export interface GitHttpServerOptions {
  /** The folder whose repositories are served (`<root>/<name>.git`, or `<root>/<name>/.git`). */
  root: string;
  port?: number;
  /**
   * Decides each request: false answers 401 asking for basic auth, 'not-found' a 404. Pushes
   * are accepted only from a request it answers with a user name (http-backend's REMOTE_USER).
   */
  authorize?(request: http.IncomingMessage, path: string): boolean | 'not-found' | { user: string };
}

export interface GitHttpServer {
  url: string;
  close(): Promise<void>;
}

export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodeURIComponent(url.pathname);
    const decision = options.authorize ? options.authorize(req, path) : true;
    if (decision === false) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    if (decision === 'not-found') {
      res.writeHead(404).end();
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: path,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        ...(typeof decision === 'object' ? { REMOTE_USER: decision.user } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(child.stdin);
    // The CGI answer: headers (with `Status:`), a blank line, then the body, streamed on.
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
    child.on('error', () => res.headersSent ? res.end() : res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
