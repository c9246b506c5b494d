/**
 * `sandbox.network.allowedDomains`: the filtering proxy lets an allowed host through and refuses
 * another, both directly (a loopback HTTP server stands for the allowed host) and from a command in
 * the sandbox, whose only way out is the proxy (Linux, bubblewrap and socat).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings } from '../../src/sandbox/index.js';
import { hostAllowed, PROXY_REFUSAL, startDomainProxy, type DomainProxy } from '../../src/sandbox/proxy.js';
import { bashTool } from '../../src/tools/bash.js';
import { createShell } from '../../src/tools/shell.js';
import { runTool, toolContext } from '../support/tool-context.js';

let site: Server;
let sitePort = 0;
beforeAll(async () => {
  site = createServer((req, res) => res.end(`hello from ${req.url}\n`));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

describe('allowed-domains matching', () => {
  it('matches a host exactly, or under a *. entry (which also matches the domain itself)', () => {
    const allowed = ['registry.npmjs.org', '*.github.com'];
    expect(hostAllowed('registry.npmjs.org', allowed)).toBe(true);
    expect(hostAllowed('REGISTRY.npmjs.org.', allowed)).toBe(true);
    expect(hostAllowed('api.github.com', allowed)).toBe(true);
    expect(hostAllowed('github.com', allowed)).toBe(true);
    expect(hostAllowed('evil-github.com', allowed)).toBe(false);
    expect(hostAllowed('npmjs.org', allowed)).toBe(false);
    expect(hostAllowed('registry.npmjs.org.evil.com', allowed)).toBe(false);
  });
});

/** A GET through the proxy's port: the status and body. */
function getThrough(proxy: DomainProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxy.port, path: url, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy's port: the first line of its answer. */
function connectThrough(proxy: DomainProxy, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port!, '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    socket.once('data', (data) => {
      resolve(data.toString().split('\r\n')[0]!);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe('the allowed-domains proxy', () => {
  let proxy: DomainProxy;
  beforeAll(async () => {
    proxy = await startDomainProxy(['127.0.0.1'], 'port');
  });
  afterAll(() => proxy.close());

  it('forwards a plain HTTP request to an allowed host', async () => {
    expect(await getThrough(proxy, `http://127.0.0.1:${sitePort}/a?b=1`)).toEqual({
      status: 200,
      body: 'hello from /a?b=1\n',
    });
  });

  it('refuses another host with 403 and says why', async () => {
    expect(await getThrough(proxy, `http://localhost:${sitePort}/`)).toEqual({
      status: 403,
      body: `${PROXY_REFUSAL}\n`,
    });
    expect(proxy.refused).toContain('localhost');
  });

  it('opens a tunnel to an allowed host and refuses one to another', async () => {
    expect(await connectThrough(proxy, `127.0.0.1:${sitePort}`)).toBe('HTTP/1.1 200 Connection Established');
    expect(await connectThrough(proxy, `localhost:${sitePort}`)).toBe('HTTP/1.1 403 Forbidden');
  });
});

const support = await detectSandbox();
const skipped =
  support.backend !== 'bubblewrap'
    ? `the sandbox cannot start here: ${support.reason}`
    : !support.socat
      ? 'socat is not installed'
      : undefined;
describe.skipIf(skipped !== undefined)(
  `a command in the sandbox with allowedDomains${skipped ? ` (skipped: ${skipped})` : ''}`,
  () => {
    it('reaches the allowed host through the proxy, is refused another, and reaches nothing directly', async () => {
      const project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-domains-')));
      const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
      const sandbox = createSandbox({
        settings: sandboxSettings({ network: { allowedDomains: ['127.0.0.1'] } }),
        projectDir: project,
        home: project,
      });
      const shell = createShell({ cwd: project, sandbox });
      try {
        const ctx = { ...toolContext(project), shell: () => shell, askPermission: async () => undefined };
        const fetchUrl = (url: string) =>
          `${python} -c "import urllib.request as u; print(u.urlopen('${url}', timeout=5).read().decode().strip())"`;
        const allowed = await runTool(bashTool, { command: fetchUrl(`http://127.0.0.1:${sitePort}/ok`) }, ctx);
        expect(allowed).toMatchObject({ isError: false, output: 'hello from /ok' });
        const refused = await runTool(bashTool, { command: fetchUrl(`http://localhost:${sitePort}/no`) }, ctx);
        expect(refused.isError).toBe(true);
        expect(refused.output).toContain('HTTP Error 403: Forbidden');
        const direct = await runTool(
          bashTool,
          { command: `${python} -c "import socket; socket.create_connection(('127.0.0.1', ${sitePort}), 3)"` },
          ctx,
        );
        expect(direct.isError).toBe(true);
        expect(direct.output).toContain('ConnectionRefusedError');
      } finally {
        shell.close();
        await sandbox.close();
        rmSync(project, { recursive: true, force: true });
      }
    });
  },
);
