/**
 * The allowed-domains proxy: a small HTTP proxy in opencode's process that forwards `CONNECT
 * host:port` tunnels (HTTPS and anything else) and plain `http://` requests only to the hosts of
 * `sandbox.network.allowedDomains`, and refuses every other host with 403. Commands in the sandbox
 * reach it through `HTTP_PROXY`/`HTTPS_PROXY`/`ALL_PROXY`; their own network namespace has no other
 * way out. It listens on a Unix socket (Linux: socat inside the sandbox bridges to it) or on a
 * loopback port (macOS). The proxy resolves names itself, so commands need no DNS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** true when `host` is listed: exactly, or under a `*.example.com` entry (which also matches `example.com`). */
export function hostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return allowedDomains.some((entry) => {
    const pattern = entry.toLowerCase().replace(/\.$/, '');
    if (pattern.startsWith('*.')) {
      const base = pattern.slice(2);
      return name === base || name.endsWith(`.${base}`);
    }
    return name === pattern;
  });
}

/** A running proxy. */
export interface DomainProxy {
  /** the Unix socket path (when started with `on: 'socket'`) */
  socketPath?: string;
  /** the loopback port (when started with `on: 'port'`) */
  port?: number;
  /** hosts refused so far, newest last (for the failure message) */
  readonly refused: string[];
  close(): Promise<void>;
}

/** The text of a refusal, which the failure recognition looks for. */
export const PROXY_REFUSAL = 'refused by the opencode sandbox: the host is not in sandbox.network.allowedDomains';

/** Starts the proxy. `on: 'socket'` listens on a Unix socket in a private temp directory. */
export async function startDomainProxy(allowedDomains: readonly string[], on: 'socket' | 'port'): Promise<DomainProxy> {
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => forwardHttp(req, res, allowedDomains, refused));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) =>
    tunnel(req, client, head, allowedDomains, refused),
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let dir: string | undefined;
  if (on === 'socket') {
    dir = mkdtempSync(join(tmpdir(), 'opencode-proxy-'));
    await listen(server, join(dir, 'proxy.sock'));
  } else {
    await listen(server, 0, '127.0.0.1');
  }
  const address = server.address();
  return {
    socketPath: typeof address === 'string' ? address : undefined,
    port: typeof address === 'object' && address ? (address as AddressInfo).port : undefined,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          if (dir) rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

function listen(server: Server, ...args: [string] | [number, string]): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(...(args as [number, string]), () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** `CONNECT host:port`: a raw tunnel to an allowed host. */
function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  allowed: readonly string[],
  refused: string[],
): void {
  const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
  client.on('error', () => {});
  if (!target || !hostAllowed(target[1]!, allowed)) {
    refused.push(target?.[1] ?? String(req.url));
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${PROXY_REFUSAL}\n`);
    return;
  }
  const upstream = connect(Number(target[2]), target[1]!.replace(/^\[(.*)\]$/, '$1'), () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (err) => {
    if (!client.destroyed) client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n${err.message}\n`);
  });
  client.on('close', () => upstream.destroy());
}

/** A plain `GET http://host/…` through the proxy. */
function forwardHttp(req: IncomingMessage, res: ServerResponse, allowed: readonly string[], refused: string[]): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('a proxy request needs an absolute http:// URL\n');
    return;
  }
  if (url.protocol !== 'http:' || !hostAllowed(url.hostname, allowed)) {
    refused.push(url.hostname);
    res.writeHead(403, { 'Content-Type': 'text/plain' }).end(`${PROXY_REFUSAL}\n`);
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest(
    { host: url.hostname, port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end(`${err.message}\n`);
  });
  req.pipe(upstream);
}
