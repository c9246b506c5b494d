/**
 * The provider fetch (src/provider/node-fetch.ts) over https that succeeds: a local TLS server with a
 * certificate made for the test, trusted by a child process the way a person behind a TLS-inspecting
 * proxy trusts their CA (NODE_EXTRA_CA_CERTS, read by Node at start-up). The https failures (an
 * unknown certificate, a server that speaks no TLS) are in node-fetch-failures.test.ts.
 */
import { execFile } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../support/tls-certificate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A self-signed certificate for 127.0.0.1, removed after the test. */
function certificate(): { key: Buffer; cert: Buffer; certFile: string } {
  const made = selfSignedCertificate();
  cleanups.push(() => made.remove());
  return made;
}

/**
 * The child: two POSTs through nodeFetch one after the other (the second on the kept-alive TLS
 * connection), each reply's chunks printed as JSON with its status and content type.
 */
const CHILD = `
import { nodeFetch } from './src/provider/node-fetch.ts';
const fetch = nodeFetch();
const replies = [];
for (const body of ['{"n":1}', '{"n":2}']) {
  const response = await fetch(process.env.TARGET_URL + '/v1/messages', { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': 'k' } });
  const chunks = [];
  for await (const chunk of response.body) chunks.push(new TextDecoder().decode(chunk));
  replies.push({ status: response.status, type: response.headers.get('content-type'), url: response.url, chunks });
}
process.stdout.write(JSON.stringify(replies));
`;

describe('nodeFetch over https', () => {
  it('sends a POST over TLS to a server whose CA the process trusts, streams the reply, and reuses the connection', async () => {
    const { key, cert, certFile } = certificate();
    const seen: { method: string; url: string; body: string; length: string | undefined; secure: boolean }[] = [];
    let handshakes = 0;
    const server = https.createServer({ key, cert }, (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          body,
          length: req.headers['content-length'],
          secure: 'encrypted' in req.socket,
        });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setTimeout(() => res.end(`data: two of ${JSON.parse(body).n}\n\n`), 20);
      });
    });
    server.on('secureConnection', () => handshakes++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const env = { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: certFile, TARGET_URL: url };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: root,
      env,
      timeout: 20_000,
    });

    expect(JSON.parse(stdout)).toEqual([
      {
        status: 200,
        type: 'text/event-stream',
        url: `${url}/v1/messages`,
        chunks: ['data: one\n\n', 'data: two of 1\n\n'],
      },
      {
        status: 200,
        type: 'text/event-stream',
        url: `${url}/v1/messages`,
        chunks: ['data: one\n\n', 'data: two of 2\n\n'],
      },
    ]);
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/messages', body: '{"n":1}', length: '7', secure: true },
      { method: 'POST', url: '/v1/messages', body: '{"n":2}', length: '7', secure: true },
    ]);
    expect(handshakes).toBe(1);
  });
});
