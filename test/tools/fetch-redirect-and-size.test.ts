/**
 * fetch as a person expects it: after redirects the output names the final URL; a page
 * over the 5 MB limit gives its first part with a note of what was cut, instead of an error.
 * A loopback server serves each case.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTool } from '../../src/tools/fetch.js';
import { runTool, toolContext } from '../support/tool-context.js';

const FIVE_MB = 5 * 1024 * 1024;
let server: http.Server;
let base: string;

/** an HTML page of about 6 MB: a heading, then paragraphs, the last one past the limit */
const bigPage = () => {
  const paragraph = `<p>${'word '.repeat(200)}</p>\n`;
  return `<html><body><h1>Big page</h1>\n${paragraph.repeat(Math.ceil((6 * 1024 * 1024) / paragraph.length))}<p>THE END</p></body></html>`;
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.on('error', () => {});
    switch (req.url) {
      case '/old-docs':
        res.writeHead(301, { Location: '/docs/v2/' }).end();
        return;
      case '/docs/v2/':
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('version 2 docs');
        return;
      case '/big.html': {
        const page = Buffer.from(bigPage());
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length }).end(page);
        return;
      }
      case '/multibyte':
        // 'é' is 2 bytes: the 5 MB cut falls inside the last one
        res
          .writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end(Buffer.concat([Buffer.alloc(FIVE_MB - 1, 'x'), Buffer.from('éé')]));
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fetchUrl = (url: string, format = 'text') => runTool(fetchTool, { url, format }, toolContext('/tmp'));

describe('fetch: redirects', () => {
  it('names the final URL first when the page moved', async () => {
    const r = await fetchUrl(`${base}/old-docs`);
    expect(r).toMatchObject({
      isError: false,
      output: `[Fetched ${base}/docs/v2/ (${base}/old-docs redirected there).]\n\nversion 2 docs`,
      metadata: { url: `${base}/old-docs`, finalUrl: `${base}/docs/v2/`, redirects: 1 },
    });
  });

  it('says nothing of redirects when there was none', async () => {
    expect((await fetchUrl(`${base}/docs/v2/`)).output).toBe('version 2 docs');
  });
});

describe('fetch: a page over the size limit', () => {
  it('gives the start of a 6 MB HTML page as markdown, with a note of what was cut', async () => {
    const r = await fetchUrl(`${base}/big.html`, 'markdown');
    expect(r.isError).toBe(false);
    expect(r.output.startsWith('# Big page\n\nword word')).toBe(true);
    expect(r.output).not.toContain('THE END');
    const total = Buffer.byteLength(bigPage()).toLocaleString('en-US');
    expect(r.output).toMatch(
      new RegExp(
        `\\n\\n\\[Output truncated: showing the first 100,000 of [\\d,]+ characters; [\\d,]+ characters were cut, and only the first 5 MB of ${total} bytes \\(by its Content-Length\\) were downloaded, the limit of fetch, and only the first [\\d,]+ of [\\d,]+ characters of the page's HTML \\(scripts and styles removed\\) were converted\\.\\]$`,
      ),
    );
    expect(r.metadata).toMatchObject({ bytes: FIVE_MB, complete: false, truncated: true });
  });

  it('a cut inside a character drops that character, never shows U+FFFD', async () => {
    const r = await fetchUrl(`${base}/multibyte`);
    // x × (5 MB − 1), then the first byte of 'é': only the x's remain (5,242,879 characters, not one more for U+FFFD)
    expect(r.output).toBe(
      `${'x'.repeat(100_000)}\n\n[Output truncated: showing the first 100,000 of 5,242,879 characters; 5,142,879 characters were cut, ` +
        'and only the first 5 MB (the page is larger; its full size was not given) were downloaded, the limit of fetch.]',
    );
  });
});
