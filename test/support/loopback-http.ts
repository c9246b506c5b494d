/**
 * A real loopback HTTP server for the tests of the provider fetch over node:http
 * (src/provider/node-fetch.ts), which records every request and connection, and the readers those
 * tests share: a body's chunks, a promise's rejection, a paced event stream.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect } from 'vitest';
import { nodeFetch } from '../../src/provider/node-fetch.js';

/** What the server does with a request, its body read whole. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback HTTP/1.1 server and what it saw. */
export interface Server {
  url: string;
  /** every request seen: method, url, lower-case headers, body */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** TCP connections accepted */
  connections: number;
  /** sockets currently open */
  sockets: Set<Socket>;
  close(): Promise<void>;
}

/**
 * A `serve(handler)` for one test file: each server listens on 127.0.0.1 at a free port, and every
 * server started is closed (its sockets destroyed) after each test. Call it at the top of the file.
 */
export function loopbackServers(): (handler: Handler) => Promise<Server> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return (handler) => serve(servers, handler);
}

async function serve(servers: Server[], handler: Handler): Promise<Server> {
  const sockets = new Set<Socket>();
  const server: Server = { url: '', requests: [], connections: 0, sockets, close: async () => {} };
  const http1 = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      server.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  http1.on('connection', (socket: Socket) => {
    server.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http1.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http1.address() as AddressInfo).port}`;
  server.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      http1.close(() => resolve());
    });
  servers.push(server);
  return server;
}

/** The fetch under test with the given stall limits (none: its defaults). */
export const fetchOf = (stallTimeouts = {}) => nodeFetch({ stallTimeouts });
const decoder = new TextDecoder();

/** Every chunk of a body, decoded. */
export async function chunksOf(response: Response): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.push(decoder.decode(chunk));
  return out;
}

/** The error a promise rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { cause?: Error & { code?: string } }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { cause?: Error & { code?: string } };
  }
  throw new Error('expected a rejection');
}

/** Writes `parts` one at a time, `gapMs` apart, each after the client has had the previous (a paced event stream). */
export function paced(res: ServerResponse, parts: string[], end = true, gapMs = 10): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let i = 0;
  const next = () => {
    if (i < parts.length) {
      res.write(parts[i++]);
      setTimeout(next, gapMs);
    } else if (end) res.end();
  };
  next();
}

/** Waits for a condition the server reports (a closed socket); fails the test after 5 s. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
