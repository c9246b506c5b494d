/**
 * Language servers (issue 12):
 * - edit → diagnostics appended, typescript-language-server warm: the whole edit tool call (write,
 *   didChange/didSave, wait for the fresh report, format), alternating an edit that introduces a type
 *   error and one that fixes it; median and p95 (target ≤ 1.5 s).
 * - `-p "say hi"` with a TypeScript project whose server is discovered vs `"lsp": false`: servers
 *   start lazily, so the two should match (interleaved runs, spawn → exit).
 * - memory: RSS of the language server's process group (typescript-language-server and its
 *   tsservers), apart from ours. (The TUI's own RSS with a server running is not measured here.)
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LspService } from '../src/lsp/service.js';
import { planServers } from '../src/lsp/servers.js';
import { LSP_SERVICE } from '../src/tools/diagnostics.js';
import { editTool } from '../src/tools/edit.js';
import { viewTool } from '../src/tools/view.js';
import { cleanEnv } from '../test/support/cli.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { runTool, toolContext } from '../test/support/tool-context.js';
import { interleaved, log, median, ms, spawnChecked, stats, type Row } from './lib.js';

const S = 'lsp';
const ROOT = join(import.meta.dirname, '..');
const BIN_DIR = join(ROOT, 'node_modules', '.bin');

function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** Resident memory of a process in MiB (Linux /proc), 0 when gone. */
function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Processes of process group `pgid` (Linux /proc). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

function tsProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-lsp-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(join(dir, 'main.ts'), 'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n');
  return dir;
}

export async function benchLsp(options: { runs: number }): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = tsProject();
  const file = join(dir, 'main.ts');
  const plan = planServers(dir, { typescript: { command: join(BIN_DIR, 'typescript-language-server'), diagnosticsTimeoutMs: 60_000 } }, '');
  const service = new LspService({ root: dir, servers: plan.servers, env: process.env, watch: false });
  const ctx = { ...toolContext(dir), extra: { [LSP_SERVICE]: service } };
  try {
    log('lsp: cold start of typescript-language-server');
    const t0 = performance.now();
    await runTool(viewTool, { file_path: file }, ctx);
    await service.query(file);
    const coldMs = performance.now() - t0;
    const good = '  return prices.reduce((a, b) => a + b, 0);';
    const bad = '  const label: string = prices.length;\n  return prices.reduce((a, b) => a + b, 0);';
    const times: number[] = [];
    let missing = 0;
    for (let i = -2; i < options.runs * 2; i++) {
      const [from, to] = i % 2 === 0 ? [good, bad] : [bad, good];
      const start = performance.now();
      const result = await runTool(editTool, { file_path: file, old_string: from, new_string: to }, ctx);
      const took = performance.now() - start;
      if (result.isError) throw new Error(`edit failed: ${result.output}`);
      if (to === bad && !result.output.includes('[2322]')) missing++;
      if (i >= 0) times.push(took);
    }
    rows.push({
      section: S,
      name: 'edit → diagnostics appended (warm)',
      value: `${ms(median(times))} median, ${ms(percentile(times, 95))} p95`,
      target: '≤ 1.5 s',
      note: `typescript-language-server 5.3.0, ${times.length} edits alternating a type error and its fix (${missing} error edits without the error); cold start + first report ${ms(coldMs)}`,
    });
    const server = service.statuses()[0]!;
    const client = (service as unknown as { slots: { client?: { child: { pid: number } } }[] }).slots[0]?.client;
    const pid = client?.child.pid;
    if (server.state === 'ready' && pid) {
      const group = groupPids(pid);
      const serverRss = group.reduce((sum, p) => sum + rssMiB(p), 0);
      rows.push({ section: S, name: 'RSS of the language server', value: `${serverRss.toFixed(0)} MiB`, note: `process group of typescript-language-server: ${group.length} processes (it and its tsservers), one small project` });
    }
  } finally {
    await service.close();
  }

  log('lsp: -p "say hi", server discoverable vs "lsp": false');
  const withLsp = tsProject();
  const withoutLsp = tsProject();
  writeFileSync(join(withoutLsp, '.opencode.json'), JSON.stringify({ lsp: false }));
  const fake = await startFakeProvider(Array.from({ length: options.runs * 2 + 2 }, () => ({ text: 'hi' })));
  try {
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.anthropicBaseURL, PATH: `${BIN_DIR}:${process.env.PATH}` });
    const bin = join(ROOT, 'bin', 'opencode');
    const t = await interleaved(options.runs, {
      discovered: () => spawnChecked(bin, ['-p', 'say hi'], { cwd: withLsp, env }),
      off: () => spawnChecked(bin, ['-p', 'say hi'], { cwd: withoutLsp, env }),
    });
    rows.push({ section: S, name: '-p "say hi", TS server discovered', value: stats(t.discovered), ratio: `${(median(t.discovered) / median(t.off)).toFixed(2)}× of "lsp": false (${ms(median(t.off))})`, target: 'same', note: 'spawn → exit; no server starts for a prompt that reads no file' });
  } finally {
    await fake.close();
  }
  return rows;
}
