/**
 * Language servers run in the OS sandbox (Linux, bubblewrap): a hostile server that tries, on
 * `initialize`, to write outside the project, overwrite `.opencode.json` and reach a loopback listener
 * does none of it and still becomes ready; with `"sandbox": "off"` (the control) it does all three.
 * typescript-language-server (a devDependency) works inside it and reports a type error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import type { LspServerPlan } from '../../src/lsp/servers.js';
import { createSandbox, type Sandbox, type SandboxMode } from '../../src/sandbox/index.js';
import { HARM_LSP_FIXTURE, harmTargets, type HarmTargets } from '../support/harm-targets.js';
import { until } from '../lsp/fake-server.js';

let targets: HarmTargets | undefined;
let sandbox: Sandbox | undefined;
let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  await targets?.close();
  await sandbox?.close();
  targets = sandbox = service = undefined;
});

const TS_SERVER = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'typescript-language-server');

function plan(overrides: Partial<LspServerPlan>): LspServerPlan {
  return {
    language: 'harm',
    command: process.execPath,
    args: [HARM_LSP_FIXTURE],
    env: {},
    extensions: ['.hm'],
    source: 'config',
    why: 'configured in lsp.harm',
    startTimeoutMs: 20_000,
    diagnosticsTimeoutMs: 20_000,
    ...overrides,
  };
}

async function startHarmServer(mode: SandboxMode, overrides: Partial<LspServerPlan> = {}) {
  targets = await harmTargets();
  sandbox = createSandbox({
    settings: { mode, allowWrite: [], denyRead: [], allowedDomains: [] },
    projectDir: targets.project,
    home: process.env.HOME!,
  });
  service = new LspService({
    root: targets.project,
    servers: [plan({ env: targets.env, ...overrides })],
    env: process.env,
    watch: false,
    sandbox,
  });
  const file = join(targets.project, 'a.hm');
  writeFileSync(file, 'x\n');
  service.viewed(file, 'x\n', 'session-1');
  // ready means the server answered initialize, which it does only after its attempts
  await until('the server ready or failed', () => ['ready', 'failed'].includes(service!.statuses()[0]!.state));
  expect(service.statuses()[0]).toMatchObject({ state: 'ready' });
  return targets.harmed();
}

describe.runIf(process.platform === 'linux')('a language server in the sandbox', () => {
  it('becomes ready, but cannot write outside the project, change .opencode.json or open a connection', async () => {
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
    service = new LspService({
      root: targets.project,
      servers: [plan({ command: 'opencode-no-such-server', args: [] })],
      env: process.env,
      watch: false,
      sandbox,
    });
    service.viewed(join(targets.project, 'a.hm'), 'x\n', 'session-1');
    await until('the server failed', () => service!.statuses()[0]!.state === 'failed');
    expect(service.statuses()[0]).toMatchObject({
      reason: 'command not found: opencode-no-such-server (install it, or set lsp.harm.command)',
    });
  });

  it(
    'typescript-language-server works inside it: a type error is reported after an edit',
    { timeout: 300_000 },
    async () => {
      targets = await harmTargets();
      sandbox = createSandbox({
        settings: { mode: 'auto', allowWrite: [], denyRead: [], allowedDomains: [] },
        projectDir: targets.project,
        home: process.env.HOME!,
      });
      // a slow machine can take tens of seconds to start tsserver cold; the wait is a limit, not the expected time
      const ts = plan({
        language: 'typescript',
        command: TS_SERVER,
        args: ['--stdio'],
        extensions: ['.ts'],
        startTimeoutMs: 120_000,
        diagnosticsTimeoutMs: 120_000,
      });
      service = new LspService({ root: targets.project, servers: [ts], env: process.env, watch: false, sandbox });
      writeFileSync(
        join(targets.project, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
      );
      const file = join(targets.project, 'a.ts');
      writeFileSync(file, 'export const n: number = 1;\n');
      service.viewed(file, 'export const n: number = 1;\n', 'session-1');
      await until('tsserver ready', () => ['ready', 'failed'].includes(service!.statuses()[0]!.state), 120_000);
      expect(service.statuses()[0]).toMatchObject({ state: 'ready' });
      writeFileSync(file, "export const n: number = 'one';\n");
      const report = await service.changed([{ path: file, text: "export const n: number = 'one';\n" }]);
      expect(report!.added.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
        "1:14 Type 'string' is not assignable to type 'number'.",
      ]);
    },
  );
});
