/**
 * A stdio MCP server runs in the OS sandbox (Linux, bubblewrap): a hostile server that tries, as it
 * starts, to write outside the project, overwrite `.opencode.json` and reach a loopback listener does
 * none of it and still connects; with `"sandbox": "off"` (the control) it does all three. Its entry's
 * `sandbox: { network: true }` gives it the network, and nothing more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/schema.js';
import type { McpService } from '../../src/mcp/service.js';
import { createSandbox, type Sandbox, type SandboxMode } from '../../src/sandbox/index.js';
import { HARM_MCP_FIXTURE, harmTargets, type HarmTargets } from '../support/harm-targets.js';
import { startService, whenServer } from '../mcp/fixture.js';

let targets: HarmTargets | undefined;
let sandbox: Sandbox | undefined;
let service: McpService | undefined;
afterEach(async () => {
  await service?.close();
  await targets?.close();
  await sandbox?.close();
  targets = sandbox = service = undefined;
});

async function startHarmServer(mode: SandboxMode, extra: Record<string, unknown> = {}) {
  targets = await harmTargets();
  sandbox = createSandbox({
    settings: { mode, allowWrite: [], denyRead: [], allowedDomains: [] },
    projectDir: targets.project,
    home: process.env.HOME!,
  });
  const config = mcpServerSchema.parse({
    command: process.execPath,
    args: [HARM_MCP_FIXTURE],
    env: targets.env,
    ...extra,
  });
  service = startService({ servers: { harm: config }, cwd: targets.project, sandbox });
  const info = await whenServer(service, 'harm', (s) => s.status !== 'connecting');
  // connected means the server answered initialize, which it does only after its attempts
  expect(info).toMatchObject({ status: 'connected', tools: ['harm_harm_report'] });
  return targets.harmed();
}

describe.runIf(process.platform === 'linux')('a stdio MCP server in the sandbox', () => {
  it('connects, but cannot write outside the project, change .opencode.json or open a connection', async () => {
    expect(await startHarmServer('auto')).toEqual({ outside: false, config: false, tcp: false });
  });

  it('the control: with "sandbox": "off" the same server does all three', async () => {
    expect(await startHarmServer('off')).toEqual({ outside: true, config: true, tcp: true });
  });

  it("its entry's sandbox.network gives it the network, and still no write outside", async () => {
    expect(await startHarmServer('auto', { sandbox: { network: true } })).toEqual({
      outside: false,
      config: false,
      tcp: true,
    });
  });

  it('a command that is not installed fails as without the sandbox', async () => {
    targets = await harmTargets();
    sandbox = createSandbox({
      settings: { mode: 'auto', allowWrite: [], denyRead: [], allowedDomains: [] },
      projectDir: targets.project,
      home: process.env.HOME!,
    });
    service = startService({
      servers: { gone: mcpServerSchema.parse({ command: 'opencode-no-such-server' }) },
      cwd: targets.project,
      sandbox,
    });
    const info = await whenServer(service, 'gone', (s) => s.status !== 'connecting');
    expect(info).toMatchObject({ status: 'failed', error: 'command not found: opencode-no-such-server' });
  });
});

describe('a stdio MCP server where the sandbox cannot start', () => {
  const unavailable = Promise.resolve({ backend: 'none' as const, reason: 'bubblewrap (bwrap) is not installed' });

  it('with "sandbox": "required" is not started: it fails with what to do, and nothing ran', async () => {
    targets = await harmTargets();
    sandbox = createSandbox({
      settings: { mode: 'required', allowWrite: [], denyRead: [], allowedDomains: [] },
      projectDir: targets.project,
      home: process.env.HOME!,
      support: unavailable,
    });
    const config = mcpServerSchema.parse({ command: process.execPath, args: [HARM_MCP_FIXTURE], env: targets.env });
    service = startService({ servers: { harm: config }, cwd: targets.project, sandbox });
    const info = await whenServer(service, 'harm', (s) => s.status !== 'connecting');
    expect(info).toMatchObject({
      status: 'failed',
      error:
        'Commands are not run: "sandbox" is "required" in the configuration and the sandbox cannot start here (bubblewrap (bwrap) is not installed). ' +
        'Install bubblewrap (Linux) or set "sandbox" to "auto".',
    });
    expect(targets.report()).toBeUndefined();
  });

  it('with "sandbox": "auto" runs as it is (only the permission checks protect the run, as for commands)', async () => {
    targets = await harmTargets();
    sandbox = createSandbox({
      settings: { mode: 'auto', allowWrite: [], denyRead: [], allowedDomains: [] },
      projectDir: targets.project,
      home: process.env.HOME!,
      support: unavailable,
    });
    const config = mcpServerSchema.parse({ command: process.execPath, args: [HARM_MCP_FIXTURE], env: targets.env });
    service = startService({ servers: { harm: config }, cwd: targets.project, sandbox });
    expect(await whenServer(service, 'harm', (s) => s.status !== 'connecting')).toMatchObject({ status: 'connected' });
    expect(targets.harmed()).toEqual({ outside: true, config: true, tcp: true });
  });
});
