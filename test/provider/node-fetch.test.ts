/**
 * The provider fetch over node:http (src/provider/node-fetch.ts) against a real loopback server: what
 * it sends, how it reads bodies (chunks, gzip/deflate/br), redirects and keep-alive. How a request
 * fails and the stall clocks are in node-fetch-failures.test.ts. The providers' own tests drive it
 * through the real SDKs.
 */
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/provider/node-fetch.js';
import { chunksOf, fetchOf, loopbackServers, paced, rejection, until } from '../support/loopback-http.js';

const serve = loopbackServers();
const decoder = new TextDecoder();

describe('nodeFetch: the request', () => {
  it("sends the method, the body with its length, the given headers, and the headers Node's fetch adds", async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const body = JSON.stringify({ text: 'héllo' });
    const response = await fetchOf()(`${server.url}/v1/messages?beta=true`, {
      method: 'post',
      body,
      headers: new Headers({
        'content-type': 'application/json',
        'X-Api-Key': 'k1',
        'user-agent': 'Anthropic/JS 1.14.0',
      }),
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
      const response = await fetchOf()(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/`, {
        method: 'POST',
        body,
      });
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
    await (
      await fetchOf()(server.url, {
        method: 'POST',
        body: 'y',
        headers: [
          ['X-Two', '2'],
          ['x-two', '3'],
        ],
      })
    ).text();
    expect(server.requests.map((r) => [r.headers['x-one'], r.headers['x-two'], r.headers['content-type']])).toEqual([
      ['1', undefined, 'text/plain;charset=UTF-8'],
      [undefined, '2, 3', 'text/plain;charset=UTF-8'],
    ]);
  });

  it('reuses one kept-alive connection for requests one after another', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const fetch = fetchOf();
    for (let i = 0; i < 3; i++)
      expect(await (await fetch(server.url, { method: 'POST', body: String(i) })).text()).toBe('ok');
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
    const response = await nodeFetch({ fallback })('http://127.0.0.1:1/upload', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await response.text()).toBe('from fallback');
    expect(calls).toEqual(['http://127.0.0.1:1/upload']);
  });
});

describe('nodeFetch: the response', () => {
  it('gives status, headers, url and an event stream in the chunks the server sent, lines split across chunks', async () => {
    const parts = ['event: message_start\ndata: {"a":', '1}\n\n', 'event: ping\n', 'data: {}\n\n'];
    const server = await serve((_req, res) => paced(res, parts));
    const response = await fetchOf()(`${server.url}/stream`);
    expect([response.status, response.ok, response.statusText, response.url]).toEqual([
      200,
      true,
      'OK',
      `${server.url}/stream`,
    ]);
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
    expect(Buffer.concat(received).equals(Buffer.concat(Array.from({ length: blocks }, (_, i) => block(i))))).toBe(
      true,
    );
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
    const response = await fetchOf()(`${server.url}/a`, {
      method: 'POST',
      body: 'payload',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
    });
    expect([await response.text(), response.redirected, response.url]).toEqual(['other', true, `${other.url}/c`]);
    expect(server.requests.map((r) => [r.method, r.url, r.body, r.headers.authorization])).toEqual([
      ['POST', '/a', 'payload', 'Bearer x'],
      ['POST', '/b', 'payload', 'Bearer x'],
    ]);
    const [last] = other.requests;
    expect([last!.method, last!.body, last!.headers.authorization, last!.headers['content-type']]).toEqual([
      'GET',
      '',
      undefined,
      undefined,
    ]);
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
    expect([err.message, err.cause?.message, server.requests.length]).toEqual([
      'fetch failed',
      'redirect count exceeded',
      21,
    ]);
  });
});
