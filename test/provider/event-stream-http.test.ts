/**
 * The Anthropic provider's own HTTP client (event-stream-http.ts, issue 16), against a real loopback
 * HTTP server that writes the bytes each case needs: events split at awkward places, the SDK's line
 * endings, errors shaped as the SDK's, the stall clocks counting only the wait for the server, and
 * connections kept alive between calls.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStreamClient, HttpStatusError, sseMessages, type SseMessage } from '../../src/provider/event-stream-http.js';
import { ProviderStallError } from '../../src/provider/stall.js';

const LIMITS = { firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback server answering each request with `handler`; counts the TCP connections it accepted. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; connections: () => number }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`, connections: () => connections };
}

function client(): EventStreamClient {
  const c = new EventStreamClient();
  closers.push(async () => c.close());
  return c;
}

async function all(events: AsyncIterable<SseMessage>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** Writes `parts` one at a time, each after the previous one was flushed, then ends. */
async function writeParts(res: http.ServerResponse, parts: (string | Buffer)[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const part of parts) {
    await new Promise<void>((resolve) => res.write(part, () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  res.end();
}

describe('sseMessages (the SDK 1.14 parser, on strings)', () => {
  it('reads \\n, \\r\\n and \\r line endings split anywhere, multi-line data, comments, a BOM and unknown fields', async () => {
    const chunks = ['\uFEFFevent: a\r', '\ndata: {"x":', '1}\r\n\r\nid: 7\n: a comment\nevent:b\ndata: one\ndata:two\n\n', 'event: c\rdata: 3\r\r', 'data: no event name\n\n'];
    const next = async () => chunks.shift();
    expect(await all(sseMessages(next))).toEqual([
      { event: 'a', data: '{"x":1}' },
      { event: 'b', data: 'one\ntwo' },
      { event: 'c', data: '3' },
      { event: null, data: 'no event name' },
    ]);
  });

  it('drops an event the stream ends in the middle of (no blank line after it)', async () => {
    const chunks = ['event: a\ndata: 1\n\n', 'event: b\ndata: 2\n'];
    expect(await all(sseMessages(async () => chunks.shift()))).toEqual([{ event: 'a', data: '1' }]);
  });
});

describe('EventStreamClient', () => {
  it('sends the body and headers as given and yields the events, skipping ping and nameless ones', async () => {
    let seen: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const { url } = await serve((req, res) => {
      seen = { method: req.method, headers: req.headers };
      void writeParts(res, [
        'event: ping\ndata: {"type": "ping"}\n\n',
        'event: message_start\ndata: {"type":"message_start"}\n\n',
        // a 3-byte UTF-8 character cut between two writes
        Buffer.concat([Buffer.from('event: content_block_delta\ndata: {"text":"'), Buffer.from('\u20ac').subarray(0, 1)]),
        Buffer.concat([Buffer.from('\u20ac').subarray(1), Buffer.from('"}\n\n')]),
        'data: {"nameless":true}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
      ]);
    });
    const response = await client().post({ url, headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{"a":"é"}', timeouts: LIMITS });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    expect(await all(response.events())).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'content_block_delta', data: '{"text":"\u20ac"}' },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ]);
    expect(seen.method).toBe('POST');
    expect(seen.headers!.authorization).toBe('Bearer k');
    expect(seen.headers!['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(seen.headers!['accept-encoding']).toBeUndefined();
  });

  it('fails a non-2xx answer as the SDK\'s APIError does: status, parsed body, headers, "<status> <body>"', async () => {
    const body = { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } };
    const { url } = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify(body));
    });
    const err = (await client().post({ url, headers: {}, body: '{}', timeouts: LIMITS }).catch((e: unknown) => e)) as HttpStatusError;
    expect(err).toBeInstanceOf(HttpStatusError);
    expect([err.status, err.error, err.headers.get('retry-after'), err.message]).toEqual([429, body, '7', `429 ${JSON.stringify(body)}`]);
  });

  it('a non-JSON error body is quoted in the message, with no parsed body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    const err = (await client().post({ url, headers: {}, body: '{}', timeouts: LIMITS }).catch((e: unknown) => e)) as HttpStatusError;
    expect([err.status, err.error, err.message]).toEqual([502, undefined, '502 bad gateway']);
  });

  it('an error event fails the stream with its data as the error body and no status', async () => {
    const { url } = await serve((_req, res) => {
      void writeParts(res, ['event: message_start\ndata: {}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n']);
    });
    const response = await client().post({ url, headers: {}, body: '{}', timeouts: LIMITS });
    const got: SseMessage[] = [];
    const err = (await (async () => {
      for await (const e of response.events()) got.push(e);
    })().catch((e: unknown) => e)) as HttpStatusError;
    expect(got).toEqual([{ event: 'message_start', data: '{}' }]);
    expect([err.name, err.status, err.error, err.message]).toEqual([
      'APIError',
      undefined,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ]);
  });

  it('a server that sends headers and then nothing fails with a first-byte stall', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    const response = await client().post({ url, headers: {}, body: '{}', timeouts: { firstByteTimeoutMs: 150, idleTimeoutMs: 5_000 } });
    const err = (await all(response.events()).catch((e: unknown) => e)) as ProviderStallError;
    expect(err).toBeInstanceOf(ProviderStallError);
    expect([err.phase, err.limitMs]).toEqual(['first-byte', 150]);
  });

  it('a body that stops flowing fails with an idle stall; a slow reader of a flowing body does not', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: a\ndata: 1\n\n');
      if (req.url!.endsWith('?stop')) return; // nothing more, connection open
      res.end('event: b\ndata: 2\n\n');
    });
    const c = client();
    const timeouts = { firstByteTimeoutMs: 5_000, idleTimeoutMs: 150 };
    const stopped = await c.post({ url: `${url}?stop`, headers: {}, body: '{}', timeouts });
    const err = (await all(stopped.events()).catch((e: unknown) => e)) as ProviderStallError;
    expect([err instanceof ProviderStallError, err.phase, err.limitMs]).toEqual([true, 'idle', 150]);

    const flowing = await c.post({ url, headers: {}, body: '{}', timeouts });
    const got: SseMessage[] = [];
    for await (const e of flowing.events()) {
      got.push(e);
      await new Promise((resolve) => setTimeout(resolve, 400)); // the reader is slow, not the server
    }
    expect(got).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ]);
  });

  it('an aborted signal fails the request with an AbortError', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: a\ndata: 1\n\n');
    });
    const controller = new AbortController();
    const response = await client().post({ url, headers: {}, body: '{}', signal: controller.signal, timeouts: LIMITS });
    const err = (await (async () => {
      for await (const _ of response.events()) controller.abort();
    })().catch((e: unknown) => e)) as Error;
    expect(err.name).toBe('AbortError');
  });

  it('a connection that cannot be made fails as the SDK\'s did: APIConnectionError with the socket error as cause', async () => {
    const { url } = await serve(() => {});
    await Promise.all(closers.splice(0).map((close) => close())); // nothing listens there now
    const err = (await client().post({ url, headers: {}, body: '{}', timeouts: LIMITS }).catch((e: unknown) => e)) as Error & { cause: { code: string } };
    expect([err.name, err.message, err.cause.code]).toEqual(['APIConnectionError', 'Connection error.', 'ECONNREFUSED']);
  });

  it('keeps the connection alive between calls', async () => {
    const { url, connections } = await serve((_req, res) => void writeParts(res, ['event: a\ndata: 1\n\n']));
    const c = client();
    for (let i = 0; i < 3; i++) {
      const response = await c.post({ url, headers: {}, body: '{}', timeouts: LIMITS });
      expect(await all(response.events())).toEqual([{ event: 'a', data: '1' }]);
    }
    expect(connections()).toBe(1);
  });
});
