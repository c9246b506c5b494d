/**
 * The provider fetch over node:http (src/provider/node-fetch.ts) against a real loopback server: what
 * it sends, how it reads bodies (chunks, gzip/deflate/br), redirects, keep-alive, and every way a
 * request fails, with the error shapes Node's fetch gives (the SDKs and retry.ts read them). The
 * providers' own tests drive it through the real SDKs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/provider/node-fetch.js';
import { StallClock } from '../../src/provider/node-fetch-clock.js';
import { ProviderStallError } from '../../src/provider/stall.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Server {
  url: string;
  /** every request seen: method, url, lower-case headers, body */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** TCP connections accepted */
  connections: number;
  /** sockets currently open */
  sockets: Set<Socket>;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<Server> {
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

const fetchOf = (stallTimeouts = {}) => nodeFetch({ stallTimeouts });
const decoder = new TextDecoder();

/** Every chunk of a body, decoded. */
async function chunksOf(response: Response): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.push(decoder.decode(chunk));
  return out;
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error & { cause?: Error & { code?: string } }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { cause?: Error & { code?: string } };
  }
  throw new Error('expected a rejection');
}

/** Writes `parts` one at a time, `gapMs` apart, each after the client has had the previous (a paced event stream). */
function paced(res: ServerResponse, parts: string[], end = true, gapMs = 10): void {
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

describe('nodeFetch: the request', () => {
  it('sends the method, the body with its length, the given headers, and the headers Node\'s fetch adds', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const body = JSON.stringify({ text: 'héllo' });
    const response = await fetchOf()(`${server.url}/v1/messages?beta=true`, {
      method: 'post',
      body,
      headers: new Headers({ 'content-type': 'application/json', 'X-Api-Key': 'k1', 'user-agent': 'Anthropic/JS 1.14.0' }),
    });
    expect(await response.text()).toBe('ok');
    const [seen] = server.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', body });
    expect(seen!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-api-key': 'k1',
      'user-agent': 'Anthropic/JS 1.14.0',
      accept: '*/*',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'accept-encoding': 'gzip, deflate',
      connection: 'keep-alive',
    });
  });

  it('sends a string body as its UTF-8 bytes: characters past Latin-1, a surrogate pair, a lone surrogate as U+FFFD', async () => {
    const received: Buffer[] = [];
    // the bytes as they came (the shared server decodes bodies to strings)
    const raw = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        received.push(Buffer.concat(parts));
        res.end(req.headers['content-length']);
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const body = `{"text":"naïve — 日本語 😀 \ud800 end"}`;
      const response = await fetchOf()(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/`, { method: 'POST', body });
      const expected = Buffer.from(body, 'utf8');
      expect(await response.text()).toBe(String(expected.length));
      expect(received[0]!.equals(expected)).toBe(true);
      expect(received[0]!.toString('utf8')).toBe('{"text":"naïve — 日本語 😀 \ufffd end"}');
    } finally {
      raw.closeAllConnections();
      raw.close();
    }
  });

  it('takes headers as a record or as pairs, and a string body without a type as text/plain', async () => {
    const server = await serve((_req, res) => res.end());
    await (await fetchOf()(server.url, { method: 'POST', body: 'x', headers: { 'X-One': '1' } })).text();
    await (await fetchOf()(server.url, { method: 'POST', body: 'y', headers: [['X-Two', '2'], ['x-two', '3']] })).text();
    expect(server.requests.map((r) => [r.headers['x-one'], r.headers['x-two'], r.headers['content-type']])).toEqual([
      ['1', undefined, 'text/plain;charset=UTF-8'],
      [undefined, '2, 3', 'text/plain;charset=UTF-8'],
    ]);
  });

  it('reuses one kept-alive connection for requests one after another', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const fetch = fetchOf();
    for (let i = 0; i < 3; i++) expect(await (await fetch(server.url, { method: 'POST', body: String(i) })).text()).toBe('ok');
    expect(server.connections).toBe(1);
  });

  it('sends a request again on a new connection when its kept-alive connection was closed by the server', async () => {
    const served = new WeakSet<Socket>();
    const server = await serve((req, res) => {
      // the second request on a connection finds it closed, as after the server's keep-alive timeout
      if (served.has(req.socket)) return req.socket.destroy();
      served.add(req.socket);
      res.end(`answer ${server.requests.length}`);
    });
    const fetch = fetchOf();
    expect(await (await fetch(server.url, { method: 'POST', body: 'a' })).text()).toBe('answer 1');
    expect(await (await fetch(server.url, { method: 'POST', body: 'b' })).text()).toBe('answer 3');
    expect(server.requests.map((r) => r.body)).toEqual(['a', 'b', 'b']);
    expect(server.connections).toBe(2);
  });

  it('hands a request it does not send itself (a stream body) to the fallback', async () => {
    const calls: string[] = [];
    const fallback = (async (input: string | URL | Request) => {
      calls.push(String(input));
      return new Response('from fallback');
    }) as typeof fetch;
    const body = new ReadableStream({ start: (c) => c.close() });
    const response = await nodeFetch({ fallback })('http://127.0.0.1:1/upload', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await response.text()).toBe('from fallback');
    expect(calls).toEqual(['http://127.0.0.1:1/upload']);
  });
});

describe('nodeFetch: the response', () => {
  it('gives status, headers, url and an event stream in the chunks the server sent, lines split across chunks', async () => {
    const parts = ['event: message_start\ndata: {"a":', '1}\n\n', 'event: ping\n', 'data: {}\n\n'];
    const server = await serve((_req, res) => paced(res, parts));
    const response = await fetchOf()(`${server.url}/stream`);
    expect([response.status, response.ok, response.statusText, response.url]).toEqual([200, true, 'OK', `${server.url}/stream`]);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await chunksOf(response)).toEqual(parts);
  });

  it('reads an error status with a JSON body through json(), with the response headers', async () => {
    const error = { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } };
    const server = await serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_1', 'retry-after': '3' });
      res.end(JSON.stringify(error));
    });
    const response = await fetchOf()(server.url, { method: 'POST', body: '{}' });
    expect([response.status, response.ok, response.statusText]).toEqual([400, false, 'Bad Request']);
    expect([response.headers.get('request-id'), response.headers.get('retry-after')]).toEqual(['req_1', '3']);
    expect(await response.json()).toEqual(error);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow('Body is unusable');
  });

  it.each([
    ['gzip', (s: string) => zlib.gzipSync(s)],
    ['x-gzip', (s: string) => zlib.gzipSync(s)],
    ['deflate', (s: string) => zlib.deflateSync(s)],
    ['deflate', (s: string) => zlib.deflateRawSync(s)],
    ['br', (s: string) => zlib.brotliCompressSync(s)],
    ['deflate, gzip', (s: string) => zlib.gzipSync(zlib.deflateSync(s))],
  ])('decodes a %s body', async (encoding, encode) => {
    const text = 'data: {"type":"ping"}\n\n'.repeat(50);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': encoding });
      res.end(encode(text));
    });
    expect(await (await fetchOf()(server.url)).text()).toBe(text);
  });

  it('delivers a gzip event stream event by event as the server flushes it, not at the end', async () => {
    const gzip = zlib.createGzip();
    let res: ServerResponse | undefined;
    const server = await serve((_req, r) => {
      res = r;
      r.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      gzip.pipe(r);
      gzip.write('data: one\n\n');
      gzip.flush();
    });
    const response = await fetchOf()(server.url);
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(decoder.decode(first.value)).toBe('data: one\n\n');
    gzip.end('data: two\n\n');
    expect(decoder.decode((await chunks.next()).value)).toBe('data: two\n\n');
    expect((await chunks.next()).done).toBe(true);
    expect(res).toBeDefined();
  });

  it('a body larger than its buffer, read slowly, arrives whole and in order (the socket waits for the reader)', async () => {
    const block = (i: number) => Buffer.alloc(64 * 1024, i % 251);
    const blocks = 128; // 8 MiB, eight times the most the body queues unread
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let i = 0;
      const write = (): void => {
        while (i < blocks) if (!res.write(block(i++))) return void res.once('drain', write);
        res.end();
      };
      write();
    });
    const response = await fetchOf()(server.url);
    const received: Buffer[] = [];
    let reads = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received.push(Buffer.from(chunk));
      // a slow reader: the server is held back instead of the body queueing all of it
      if (++reads % 16 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    expect(Buffer.concat(received).equals(Buffer.concat(Array.from({ length: blocks }, (_, i) => block(i))))).toBe(true);
  });

  it('has no body for 204 and for HEAD', async () => {
    const server = await serve((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 204, { 'content-length': req.method === 'HEAD' ? '5' : '0' });
      res.end();
    });
    const none = await fetchOf()(server.url, { method: 'DELETE' });
    expect([none.status, none.body, await none.text()]).toEqual([204, null, '']);
    const head = await fetchOf()(server.url, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, null]);
  });

  it('closes the connection when a body is cancelled unread (iterator return)', async () => {
    const server = await serve((_req, res) => paced(res, ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'], false));
    const response = await fetchOf()(server.url);
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    await body[Symbol.asyncIterator]().next();
    await body[Symbol.asyncIterator]().return!();
    expect(await body[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
    await until(() => server.sockets.size === 0);
  });
});

describe('nodeFetch: redirects', () => {
  it('follows 307 with the method and body, 303 as GET without them, and drops credentials on another origin', async () => {
    const other = await serve((_req, res) => res.end('other'));
    const server = await serve((req, res) => {
      if (req.url === '/a') return void res.writeHead(307, { location: '/b' }).end();
      if (req.url === '/b') return void res.writeHead(303, { location: `${other.url}/c` }).end();
      res.end('never');
    });
    const response = await fetchOf()(`${server.url}/a`, { method: 'POST', body: 'payload', headers: { authorization: 'Bearer x', 'content-type': 'application/json' } });
    expect([await response.text(), response.redirected, response.url]).toEqual(['other', true, `${other.url}/c`]);
    expect(server.requests.map((r) => [r.method, r.url, r.body, r.headers.authorization])).toEqual([
      ['POST', '/a', 'payload', 'Bearer x'],
      ['POST', '/b', 'payload', 'Bearer x'],
    ]);
    const [last] = other.requests;
    expect([last!.method, last!.body, last!.headers.authorization, last!.headers['content-type']]).toEqual(['GET', '', undefined, undefined]);
  });

  it('refuses a redirect with redirect: "error" and gives the 3xx itself with redirect: "manual"', async () => {
    const server = await serve((_req, res) => void res.writeHead(302, { location: '/elsewhere' }).end());
    const err = await rejection(fetchOf()(server.url, { redirect: 'error' }));
    expect([err.name, err.message, err.cause?.message]).toEqual(['TypeError', 'fetch failed', 'unexpected redirect']);
    const manual = await fetchOf()(server.url, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/elsewhere']);
  });

  it('gives up after 20 redirects', async () => {
    const server = await serve((_req, res) => void res.writeHead(302, { location: '/again' }).end());
    const err = await rejection(fetchOf()(server.url));
    expect([err.message, err.cause?.message, server.requests.length]).toEqual(['fetch failed', 'redirect count exceeded', 21]);
  });
});

describe('nodeFetch: failures, shaped as Node\'s fetch shapes them', () => {
  it('a refused connection: fetch failed ← ECONNREFUSED', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    const err = await rejection(fetchOf()(url, { method: 'POST', body: '{}' }));
    expect([err.name, err.message, err.cause?.code]).toEqual(['TypeError', 'fetch failed', 'ECONNREFUSED']);
  });

  it('a port on the Fetch standard\'s bad-port list: fetch failed ← bad port, nothing sent', async () => {
    const err = await rejection(fetchOf()('http://127.0.0.1:6000/v1/messages', { method: 'POST', body: '{}' }));
    expect([err.message, err.cause?.message]).toEqual(['fetch failed', 'bad port']);
  });

  it('an unknown host: fetch failed ← the DNS error', async () => {
    const err = await rejection(fetchOf()('http://no-such-host.invalid/'));
    expect(err.message).toBe('fetch failed');
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(err.cause?.code);
  });

  it('https: a certificate nobody signed and a server that speaks no TLS fail with the TLS error, as Node\'s fetch says it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-node-fetch-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const tls = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.end('secret'));
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const plain = await serve((_req, res) => res.end('plain'));
      try {
        for (const url of [`https://127.0.0.1:${(tls.address() as AddressInfo).port}/`, plain.url.replace('http:', 'https:')]) {
          const ours = await rejection(fetchOf()(url, { method: 'POST', body: '{}' }));
          const undici = await rejection(fetch(url, { method: 'POST', body: '{}' }));
          expect([ours.message, ours.cause?.code, ours.cause?.message]).toEqual([undici.message, undici.cause?.code, undici.cause?.message]);
        }
      } finally {
        tls.closeAllConnections();
        tls.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a connection closed before the response: fetch failed ← SocketError other side closed', async () => {
    const server = await serve((req) => req.socket.destroy());
    const err = await rejection(fetchOf()(server.url, { method: 'POST', body: '{}' }));
    expect([err.message, err.cause?.name, err.cause?.message, err.cause?.code]).toEqual(['fetch failed', 'SocketError', 'other side closed', 'UND_ERR_SOCKET']);
  });

  it('a connection closed mid-body: the read throws terminated ← other side closed, after the chunks that came', async () => {
    const server = await serve((req, res) => {
      paced(res, ['data: 1\n\n'], false);
      setTimeout(() => req.socket.destroy(), 30);
    });
    const response = await fetchOf()(server.url);
    const seen: string[] = [];
    const err = await rejection(
      (async () => {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) seen.push(decoder.decode(chunk));
      })(),
    );
    expect(seen).toEqual(['data: 1\n\n']);
    expect([err.name, err.message, err.cause?.message, err.cause?.code]).toEqual(['TypeError', 'terminated', 'other side closed', 'UND_ERR_SOCKET']);
  });

  it('an abort before the response rejects with the signal\'s reason and closes the connection', async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const pending = fetchOf()(server.url, { method: 'POST', body: '{}', signal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort();
    const err = await rejection(pending);
    expect([err.name, err.message]).toEqual(['AbortError', 'This operation was aborted']);
    await until(() => server.sockets.size === 0);
    const reason = new Error('my reason');
    const already = new AbortController();
    already.abort(reason);
    expect(await rejection(fetchOf()(server.url, { signal: already.signal }))).toBe(reason);
  });

  it('an abort mid-stream fails the pending read with the reason and closes the connection', async () => {
    const server = await serve((_req, res) => paced(res, ['data: 1\n\n'], false));
    const controller = new AbortController();
    const response = await fetchOf()(server.url, { signal: controller.signal });
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    expect(decoder.decode((await chunks.next()).value)).toBe('data: 1\n\n');
    const read = chunks.next();
    controller.abort();
    const err = await rejection(read);
    expect(err.name).toBe('AbortError');
    expect(await rejection(chunks.next())).toBe(err);
    await until(() => server.sockets.size === 0);
  });

  it('headers and then silence fail the body read with the first-byte stall', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders());
    const response = await fetchOf({ firstByteTimeoutMs: 100 })(server.url);
    const err = await rejection(chunksOf(response));
    expect(err).toBeInstanceOf(ProviderStallError);
    expect([(err as ProviderStallError).phase, err.message]).toEqual(['first-byte', 'no response within 0.1 s']);
  });

  it('no response at all rejects the fetch with the first-byte stall', async () => {
    const server = await serve(() => {});
    const err = await rejection(fetchOf({ firstByteTimeoutMs: 100 })(server.url, { method: 'POST', body: '{}' }));
    expect([err.name, err.message]).toEqual(['ProviderStallError', 'no response within 0.1 s']);
    await until(() => server.sockets.size === 0);
  });

  it('a body that stops flowing fails the waiting read with the idle stall', async () => {
    const server = await serve((_req, res) => paced(res, ['data: 1\n\n'], false));
    const response = await fetchOf({ idleTimeoutMs: 100 })(server.url);
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await chunks.next();
    const err = await rejection(chunks.next());
    expect([(err as ProviderStallError).phase, err.message]).toEqual(['idle', 'no data for 0.1 s']);
  });
});

describe('nodeFetch: the stall clocks (one timer, checked when it fires)', () => {
  const events = (n: number) => Array.from({ length: n }, (_, i) => `data: ${i}\n\n`);

  it('a reader slower than the idle limit is not stalled: the clock runs only while it waits with nothing queued', async () => {
    const server = await serve((_req, res) => paced(res, events(4), true, 50));
    const response = await fetchOf({ idleTimeoutMs: 100 })(server.url);
    const seen: string[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      seen.push(decoder.decode(chunk));
      // waits for the second chunk (the idle clock runs), then reads each later one long after it came
      if (seen.length > 1) await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen.join('')).toBe(events(4).join(''));
  });

  it('a body that flows longer than the first-byte limit is not cut by it', async () => {
    const server = await serve((_req, res) => paced(res, events(8), true, 40));
    const response = await fetchOf({ firstByteTimeoutMs: 100 })(server.url);
    expect((await chunksOf(response)).join('')).toBe(events(8).join(''));
  });

  it('chunks closer together than the idle limit keep a body alive for longer than the limit', async () => {
    const server = await serve((_req, res) => paced(res, events(12), true, 40));
    const response = await fetchOf({ idleTimeoutMs: 300 })(server.url);
    expect((await chunksOf(response)).join('')).toBe(events(12).join(''));
  });

  it('silence after the first chunk, with a first-byte limit shorter than the idle one, fails with the idle stall', async () => {
    const server = await serve((_req, res) => paced(res, ['data: 1\n\n'], false));
    const response = await fetchOf({ firstByteTimeoutMs: 100, idleTimeoutMs: 300 })(server.url);
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    expect(decoder.decode((await chunks.next()).value)).toBe('data: 1\n\n');
    const err = await rejection(chunks.next());
    expect(err).toBeInstanceOf(ProviderStallError);
    expect([(err as ProviderStallError).phase, err.message]).toEqual(['idle', 'no data for 0.3 s']);
    await until(() => server.sockets.size === 0);
  });

  it('with both clocks off a silent body waits (until the caller aborts)', async () => {
    const server = await serve((_req, res) => paced(res, ['data: 1\n\n'], false));
    const controller = new AbortController();
    const response = await fetchOf({ firstByteTimeoutMs: 0, idleTimeoutMs: 0 })(server.url, { signal: controller.signal });
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await chunks.next();
    const read = chunks.next();
    setTimeout(() => controller.abort(new Error('gave up')), 200);
    expect((await rejection(read)).message).toBe('gave up');
  });
});

/** Waits for a condition the server reports (a closed socket); fails the test after 5 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('StallClock: a timer that fires early', () => {
  // Node's timers count from libuv's cached loop time and can fire up to a millisecond early; the
  // clock looks at the time itself when its timer fires, so neither limit is reached early
  const stalls = () => {
    const seen: ProviderStallError[] = [];
    return { seen, listener: { stalled: (e: ProviderStallError) => void seen.push(e) } };
  };

  it('the first-byte limit: a fire before the limit has passed arms the timer again instead of stalling', async () => {
    const { seen, listener } = stalls();
    const clock = new StallClock({ firstByteTimeoutMs: 60_000, idleTimeoutMs: 0 }, listener);
    clock.start();
    clock.fire(); // as if the timer fired ~60 s early
    expect(seen).toEqual([]);
    clock.stop();
  });

  it('the first-byte limit: a fire once the limit has passed stalls, once', async () => {
    const { seen, listener } = stalls();
    const clock = new StallClock({ firstByteTimeoutMs: 100, idleTimeoutMs: 0 }, listener);
    clock.start();
    await new Promise((r) => setTimeout(r, 120));
    clock.fire();
    clock.fire();
    expect(seen.map((e) => [e.phase, e.message])).toEqual([['first-byte', 'no response within 0.1 s']]);
    clock.stop();
  });

  it('the idle limit: a fire before a wait has lasted the limit arms the timer again instead of stalling', async () => {
    const { seen, listener } = stalls();
    const clock = new StallClock({ firstByteTimeoutMs: 0, idleTimeoutMs: 60_000 }, listener);
    clock.start();
    clock.firstByte();
    clock.waitStarted();
    clock.fire();
    expect(seen).toEqual([]);
    clock.stop();
  });
});
