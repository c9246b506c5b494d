/**
 * fetch's failures against loopback servers, each with its own message, and none of them hanging:
 * redirects, HTTP status, timeouts (no answer, stalled body, slow conversion), too large, refused,
 * DNS, TLS, permission and cancel.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTool } from '../../src/tools/fetch.js';
import { recordingContext } from '../support/recording-context.js';
import { runTool, toolContext } from '../support/tool-context.js';
import { closedPort } from '../support/ports.js';
import { hasOpenssl, selfSignedCertificate } from '../support/tls-certificate.js';

const SIX_MB = 6 * 1024 * 1024;

let server: http.Server;
let base: string;
/** paths requested, in order */
const requests: string[] = [];
/** bytes the endless stream wrote before its connection closed */
let streamedBytes = 0;
let streamClosed: Promise<void> = Promise.resolve();

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url ?? '';
  requests.push(path);
  res.on('error', () => {}); // the client hangs up on purpose in several tests
  if (path === '/to-nowhere') {
    res.writeHead(301, { Location: 'http://gone.opencode-test.invalid/page' }).end();
    return;
  }
  const redirect = /^\/redirect\/(\d+)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    if (left === 0) res.writeHead(200, { 'Content-Type': 'text/plain' }).end('arrived');
    else res.writeHead(302, { Location: `/redirect/${left - 1}` }).end('moved');
    return;
  }
  switch (path) {
    case '/missing':
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not here</h1>');
      return;
    case '/hang':
      return; // headers never come
    case '/stall':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial'); // and never more
      return;
    case '/huge-declared':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': SIX_MB });
      res.end(Buffer.alloc(SIX_MB, 'a'));
      return;
    case '/huge-stream': {
      res.writeHead(200, { 'Content-Type': 'text/plain' }); // chunked, no length: only counting can stop it
      const chunk = Buffer.alloc(64 * 1024, 'b');
      streamedBytes = 0;
      streamClosed = new Promise((resolve) => res.on('close', resolve));
      const pump = () => {
        while (!res.destroyed && streamedBytes < 64 * SIX_MB) {
          streamedBytes += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
      return;
    }
    case '/small.html':
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h2>Small</h2>');
      return;
    case '/nested':
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(`${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`);
      return;
    default:
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function fetchUrl(url: string, extra: { timeout?: number; format?: string; signal?: AbortSignal } = {}) {
  const { signal, ...input } = extra;
  return runTool(fetchTool, { url, format: 'text', ...input }, toolContext('/tmp', { signal }));
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const start = Date.now();
  const result = await work;
  return { result, ms: Date.now() - start };
}

describe('fetch redirects and status', () => {
  it('follows a chain of 3 redirects', async () => {
    const r = await fetchUrl(`${base}/redirect/3`);
    expect(r.output).toBe(`[Fetched ${base}/redirect/0 (${base}/redirect/3 redirected there in 3 steps).]\n\narrived`);
    expect(r.metadata).toMatchObject({
      url: `${base}/redirect/3`,
      finalUrl: `${base}/redirect/0`,
      redirects: 3,
      status: 200,
    });
  });

  it('follows 5 redirects and refuses the 6th, naming the chain', async () => {
    expect((await fetchUrl(`${base}/redirect/5`)).output).toBe(
      `[Fetched ${base}/redirect/0 (${base}/redirect/5 redirected there in 5 steps).]\n\narrived`,
    );
    const r = await fetchUrl(`${base}/redirect/6`);
    expect(r.isError).toBe(true);
    const hops = [6, 5, 4, 3, 2, 1, 0].map((n) => `${base}/redirect/${n}`).join(' → ');
    expect(r.output).toBe(
      `Too many redirects: ${base}/redirect/6 redirected 6 times, more than the 5 followed (${hops}).`,
    );
  });

  it('names the host of the redirect that failed, not the first one', async () => {
    const r = await fetchUrl(`${base}/to-nowhere`, { timeout: 10 });
    expect(r.output).toMatch(/^DNS lookup failed: .*"gone\.opencode-test\.invalid"/);
  });

  it('reports a 404 with its code and status text', async () => {
    const r = await fetchUrl(`${base}/missing`, { format: 'markdown' });
    expect(r).toMatchObject({
      isError: true,
      output: `Request failed with status code: 404 Not Found (${base}/missing)`,
    });
  });
});

describe('fetch never hangs', () => {
  it('times out after the given timeout when the server never answers', async () => {
    const { result, ms } = await timed(fetchUrl(`${base}/hang`, { timeout: 1 }));
    expect(result).toMatchObject({
      isError: true,
      output: `Fetching ${base}/hang timed out after 1 second (no response arrived).`,
    });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(3000);
  });

  it('times out when the body stops arriving, saying how much came', async () => {
    const { result, ms } = await timed(fetchUrl(`${base}/stall`, { timeout: 1 }));
    expect(result.output).toBe(
      `Fetching ${base}/stall timed out after 1 second (the response was still arriving, 7 bytes received).`,
    );
    expect(ms).toBeLessThan(3000);
  });

  it('gives the first 5 MB of a 6 MB body, saying what was not downloaded', async () => {
    const { result, ms } = await timed(fetchUrl(`${base}/huge-declared`));
    expect(result).toMatchObject({
      isError: false,
      output:
        `${'a'.repeat(100_000)}\n\n[Output truncated: showing the first 100,000 of 5,242,880 characters; 5,142,880 characters were cut, ` +
        'and only the first 5 MB of 6,291,456 bytes (by its Content-Length) were downloaded, the limit of fetch.]',
      metadata: { bytes: 5 * 1024 * 1024, complete: false, truncated: true },
    });
    expect(ms).toBeLessThan(2000);
  });

  it('stops reading an endless body at 5 MB and returns its first part promptly', async () => {
    const { result, ms } = await timed(fetchUrl(`${base}/huge-stream`, { format: 'markdown' }));
    const fenced = `\`\`\`\n${'b'.repeat(5 * 1024 * 1024)}\n\`\`\``;
    expect(result).toMatchObject({
      isError: false,
      output:
        `${fenced.slice(0, 100_000)}\n\n[Output truncated: showing the first 100,000 of 5,242,888 characters; 5,142,888 characters were cut, ` +
        'and only the first 5 MB (the page is larger; its full size was not given) were downloaded, the limit of fetch.]',
    });
    expect(ms).toBeLessThan(5000);
    await streamClosed; // the connection was dropped, not drained
    expect(streamedBytes).toBeLessThan(SIX_MB * 2);
  });

  it('counts the HTML conversion in the timeout and stops a conversion that would take too long', async () => {
    // 20,000 nested <div>s take turndown tens of seconds
    const { result, ms } = await timed(fetchUrl(`${base}/nested`, { timeout: 2, format: 'markdown' }));
    expect(result.output).toBe(
      `Fetching ${base}/nested timed out after 2 seconds (converting the HTML took the rest of the time; format "html" skips the conversion).`,
    );
    expect(ms).toBeLessThan(4000);
    // the same page as html needs no conversion, and the stopped converter is replaced for the next page
    expect((await fetchUrl(`${base}/nested`, { timeout: 2, format: 'html' })).isError).toBe(false);
    expect((await fetchUrl(`${base}/small.html`, { format: 'markdown' })).output).toBe('## Small');
  });

  it('stops at once when the call is canceled while waiting for an answer', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const { result, ms } = await timed(fetchUrl(`${base}/hang`, { signal: abort.signal }));
    expect(result).toEqual({ output: 'Tool execution canceled by user', isError: true });
    expect(ms).toBeLessThan(1500);
  });

  it('stops at once when the call is canceled while the body arrives', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const { result, ms } = await timed(fetchUrl(`${base}/stall`, { signal: abort.signal }));
    expect(result).toEqual({ output: 'Tool execution canceled by user', isError: true });
    expect(ms).toBeLessThan(1500);
  });
});

describe('fetch network failures', () => {
  it('says the connection was refused on a closed port, at once', async () => {
    const port = await closedPort();
    const { result, ms } = await timed(fetchUrl(`http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({
      isError: true,
      output: `Connection refused by 127.0.0.1:${port} (ECONNREFUSED): nothing is accepting connections there.`,
    });
    expect(ms).toBeLessThan(2000);
  });

  it('says the DNS lookup failed for a host that does not exist, quickly', async () => {
    // .invalid never resolves (RFC 6761); resolvers answer without asking the network
    const { result, ms } = await timed(fetchUrl('http://opencode-test.invalid/page', { timeout: 10 }));
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^DNS lookup failed: (the host "opencode-test.invalid" could not be resolved \(ENOTFOUND\)|no answer for the host "opencode-test.invalid")/,
    );
    expect(ms).toBeLessThan(5000);
  });

  it('names a TLS failure when an https URL reaches a plain http server', async () => {
    const port = new URL(base).port;
    const r = await fetchUrl(`https://127.0.0.1:${port}/`);
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(
      new RegExp(
        `^TLS error while connecting to 127\\.0\\.0\\.1:${port} \\((EPROTO|ERR_SSL_[A-Z_]+): wrong version number\\)\\. The server does not seem to speak https; try http://\\.$`,
      ),
    );
  });

  it.skipIf(!hasOpenssl())('names a certificate the client does not trust', async () => {
    const certificate = selfSignedCertificate();
    try {
      const tls = https.createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) =>
        res.end('secret'),
      );
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      try {
        const r = await fetchUrl(`https://127.0.0.1:${(tls.address() as AddressInfo).port}/`);
        expect(r).toMatchObject({
          isError: true,
          output:
            'TLS error: the certificate of 127.0.0.1 was rejected (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate).',
        });
      } finally {
        tls.closeAllConnections();
        tls.close();
      }
    } finally {
      certificate.remove();
    }
  });
});

describe('fetch permission and input', () => {
  it('asks permission with the URL, format and timeout before the request', async () => {
    const rec = recordingContext({ cwd: '/work/project' });
    const r = await runTool(fetchTool, { url: `${base}/ok`, format: 'markdown', timeout: 500 }, rec.ctx);
    expect(r.isError).toBe(false);
    expect(rec.permissions).toEqual([
      {
        action: 'fetch',
        description: `Fetch content from URL: ${base}/ok`,
        params: { url: `${base}/ok`, format: 'markdown', timeout: 120 },
        path: '/work/project',
      },
    ]);
  });

  it('makes no request when permission is denied', async () => {
    const rec = recordingContext({ cwd: '/work/project', answer: 'deny' });
    const before = requests.length;
    const r = await runTool(fetchTool, { url: `${base}/denied`, format: 'text' }, rec.ctx);
    expect(r).toEqual({ output: 'Permission denied', isError: true, permissionDenied: true });
    expect(rec.permissions).toHaveLength(1);
    expect(requests.slice(before)).toEqual([]);
  });

  it('refuses URLs that are not http or https without asking', async () => {
    const rec = recordingContext({ cwd: '/work/project' });
    const r = await runTool(fetchTool, { url: 'file:///etc/passwd', format: 'text' }, rec.ctx);
    expect(r).toMatchObject({
      isError: true,
      output: 'Unsupported URL scheme "file" in file:///etc/passwd: the URL must start with http:// or https://',
    });
    const invalid = await runTool(fetchTool, { url: 'not a url', format: 'text' }, rec.ctx);
    expect(invalid.output).toBe('Invalid URL: "not a url". The URL must start with http:// or https://');
    expect(rec.permissions).toEqual([]);
  });
});
