/**
 * `-d` when the provider answers with an HTML page (a proxy's or load balancer's error page instead of
 * the API's JSON): each `[debug]` line stays one line, naming the page by its title (it was the whole
 * page, thousands of lines). Pure cases, then bin/opencode against a loopback server sending the page.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUG_ERROR_MAX_CHARS, oneLine } from '../../src/cli/debug-log.js';
import { cleanEnv, runCli } from '../support/cli.js';

const PAGE = `<!DOCTYPE html>\n<html><head><title>400 Bad Request</title></head><body>\n${'<p>nginx</p>\n'.repeat(2000)}</body></html>`;

describe('oneLine', () => {
  it.each([
    [
      'a prefix and an HTML page',
      `rejected (HTTP 400): 400 ${PAGE}`,
      `rejected (HTTP 400): 400 an HTML page titled "400 Bad Request" (${PAGE.length} characters), not the API's answer: check the base URL and any proxy`,
    ],
    [
      'a page without a title',
      '<html><body>x</body></html>',
      `an HTML page (27 characters), not the API's answer: check the base URL and any proxy`,
    ],
    ['text over lines', 'bad\n  request\tbody', 'bad request body'],
    ['plain text', 'overloaded', 'overloaded'],
    ['a long text', 'x'.repeat(1000), `${'x'.repeat(DEBUG_ERROR_MAX_CHARS - 1)}…`],
  ])('%s', (_name, text, expected) => {
    expect(oneLine(text)).toBe(expected);
  });
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

it('-d writes one line for a request answered by an HTML error page', async () => {
  server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const dir = mkdtempSync(join(tmpdir(), 'opencode-debug-html-'));
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
  const run = await runCli(['-p', 'hi', '-d'], { cwd: dir, env });
  expect(run.code).toBe(1);
  const debug = run.stderr.split('\n').filter((l) => l.startsWith('[debug] request'));
  expect(debug).toHaveLength(1);
  expect(debug[0]).toMatch(
    /^\[debug\] request 1: failed in \d+ ms, HTTP 400: .*an HTML page titled "400 Bad Request" \(\d+ characters\), not the API's answer: check the base URL and any proxy$/,
  );
}, 60_000);
