/**
 * Every way a request through the provider fetch over node:http (src/provider/node-fetch.ts) fails,
 * against a real loopback server, with the error shapes Node's fetch gives (the SDKs and retry.ts
 * read them); and its stall clocks, first byte and idle, on the wire and with a timer that fires early.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StallClock } from '../../src/provider/node-fetch-clock.js';
import { ProviderStallError } from '../../src/provider/stall.js';
import { chunksOf, fetchOf, loopbackServers, paced, rejection, until } from '../support/loopback-http.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';

const serve = loopbackServers();
const decoder = new TextDecoder();

describe("nodeFetch: failures, shaped as Node's fetch shapes them", () => {
  it('a refused connection: fetch failed ← ECONNREFUSED', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    const err = await rejection(fetchOf()(url, { method: 'POST', body: '{}' }));
    expect([err.name, err.message, err.cause?.code]).toEqual(['TypeError', 'fetch failed', 'ECONNREFUSED']);
  });

  it("a port on the Fetch standard's bad-port list: fetch failed ← bad port, nothing sent", async () => {
    const err = await rejection(fetchOf()('http://127.0.0.1:6000/v1/messages', { method: 'POST', body: '{}' }));
    expect([err.message, err.cause?.message]).toEqual(['fetch failed', 'bad port']);
  });

  it('an unknown host: fetch failed ← the DNS error', async () => {
    const err = await rejection(fetchOf()('http://no-such-host.invalid/'));
    expect(err.message).toBe('fetch failed');
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(err.cause?.code);
  });

  it("https: a certificate nobody signed and a server that speaks no TLS fail with the TLS error, as Node's fetch says it", async () => {
    const certificate = selfSignedCertificate();
    try {
      const tls = https.createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) =>
        res.end('secret'),
      );
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const plain = await serve((_req, res) => res.end('plain'));
      try {
        for (const url of [
          `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`,
          plain.url.replace('http:', 'https:'),
        ]) {
          const ours = await rejection(fetchOf()(url, { method: 'POST', body: '{}' }));
          const undici = await rejection(fetch(url, { method: 'POST', body: '{}' }));
          expect([ours.message, ours.cause?.code, ours.cause?.message]).toEqual([
            undici.message,
            undici.cause?.code,
            undici.cause?.message,
          ]);
        }
      } finally {
        tls.closeAllConnections();
        tls.close();
      }
    } finally {
      certificate.remove();
    }
  });

  it('a connection closed before the response: fetch failed ← SocketError other side closed', async () => {
    const server = await serve((req) => req.socket.destroy());
    const err = await rejection(fetchOf()(server.url, { method: 'POST', body: '{}' }));
    expect([err.message, err.cause?.name, err.cause?.message, err.cause?.code]).toEqual([
      'fetch failed',
      'SocketError',
      'other side closed',
      'UND_ERR_SOCKET',
    ]);
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
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          seen.push(decoder.decode(chunk));
      })(),
    );
    expect(seen).toEqual(['data: 1\n\n']);
    expect([err.name, err.message, err.cause?.message, err.cause?.code]).toEqual([
      'TypeError',
      'terminated',
      'other side closed',
      'UND_ERR_SOCKET',
    ]);
  });

  it("an abort before the response rejects with the signal's reason and closes the connection", async () => {
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
    const server = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders(),
    );
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
    // the limit is 6 gaps long: a process starved of CPU for a moment (the suite runs files side by side)
    // must not make the wait for the second chunk look like a stall
    const server = await serve((_req, res) => paced(res, events(4), true, 50));
    const response = await fetchOf({ idleTimeoutMs: 300 })(server.url);
    const seen: string[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      seen.push(decoder.decode(chunk));
      // waits for the second chunk (the idle clock runs), then reads each later one long after it came (twice the limit)
      if (seen.length > 1) await new Promise((r) => setTimeout(r, 600));
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
    const response = await fetchOf({ firstByteTimeoutMs: 0, idleTimeoutMs: 0 })(server.url, {
      signal: controller.signal,
    });
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await chunks.next();
    const read = chunks.next();
    setTimeout(() => controller.abort(new Error('gave up')), 200);
    expect((await rejection(read)).message).toBe('gave up');
  });
});

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
