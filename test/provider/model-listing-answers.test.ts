/**
 * A local server's model listing (`GET <LOCAL_ENDPOINT>/v1/models`, provider/resolve.ts, over node:http)
 * against servers that answer badly: each failure is a ProviderError that says what went
 * wrong and where, never a bare TypeError of the listing's own code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError, resolveModel } from '../../src/provider/index.js';
import { envSettings } from '../support/provider-helpers.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A loopback server answering every request with `handler`; resolves with its URL (no `/v1`). */
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The error of resolving `local/x` against the server at `endpoint`. */
async function listingError(endpoint: string, discoveryTimeoutMs = 2000): Promise<ProviderError> {
  const error = await resolveModel('local/x', envSettings({ LOCAL_ENDPOINT: endpoint }), { discoveryTimeoutMs }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('the local model listing, answered badly', () => {
  it.each(['null', '[]', '"models"', '{"data":{"id":"x"}}'])('%s: the answer has no "data" list', async (answer) => {
    const url = await serve((_req, res) => res.end(answer));
    expect((await listingError(url)).message).toBe(
      `Could not list models at ${url}/v1/models: the answer has no "data" list. Is the server running?`,
    );
  });

  it('skips entries that are not objects with a string id (null, numbers), keeping the others', async () => {
    const url = await serve((_req, res) => res.end('{"data":[null,7,"x",{"id":3},{"id":"x"}]}'));
    expect(await resolveModel('local/x', envSettings({ LOCAL_ENDPOINT: url }))).toMatchObject({
      id: 'local/x',
      apiModel: 'x',
    });
  });

  it('says the timeout ran out when the headers came but the body never ended, not that it is not JSON', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    expect((await listingError(url, 300)).message).toBe(
      `Could not list models at ${url}/v1/models: the answer did not arrive in full within 300 ms. Is the server running?`,
    );
  });

  it('says the server closed the connection, before answering or while the body came', async () => {
    const before = await serve((req) => req.socket.destroy());
    expect((await listingError(before)).message).toBe(
      `Could not list models at ${before}/v1/models: the server closed the connection without answering. Is the server running?`,
    );
    const during = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[', () => req.socket.destroy());
    });
    expect((await listingError(during)).message).toBe(
      `Could not list models at ${during}/v1/models: the server closed the connection before the answer ended. Is the server running?`,
    );
  });

  it('names a body that cannot be decoded (gzip that is not), and text that is not JSON', async () => {
    const gzip = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end('not gzip');
    });
    expect((await listingError(gzip)).message).toBe(
      `Could not list models at ${gzip}/v1/models: the answer could not be read (Z_DATA_ERROR). Is the server running?`,
    );
    const html = await serve((_req, res) => res.end('<html>LM Studio</html>'));
    expect((await listingError(html)).message).toBe(
      `Could not list models at ${html}/v1/models: the answer is not JSON. Is the server running?`,
    );
  });
});
