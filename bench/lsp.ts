/**
 * Language servers:
 * - edit → diagnostics appended, typescript-language-server warm: the whole edit tool call (write,
 *   didChange/didSave, wait for the fresh report, format), alternating an edit that introduces a type
 *   error and one that fixes it; median and p95 (target ≤ 1.5 s).
 * - `-p "say hi"` with a TypeScript project whose server is discovered vs `"lsp": false`: servers
 *   start lazily, so the two should match (interleaved runs, spawn → exit).
 * - memory: RSS of the language server's process group (typescript-language-server and its
 *   tsservers), apart from ours;
 * - the TUI (bin/opencode through its shebang in a pty, as bench/tui-startup.ts runs it): its start-up
 *   with a TypeScript server discovered vs `"lsp": false` (interleaved: the status bar, the full UI
 *   usable), and its own RSS once a prompt made it view a file and the server is up, reported apart
 *   from the server's processes (its descendants).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LspService } from '../src/lsp/service.js';
import { planServers } from '../src/lsp/servers.js';
import { editTool } from '../src/tools/edit.js';
import { viewTool } from '../src/tools/view.js';
import { cleanEnv } from '../test/support/cli.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { runTool, toolContext } from '../test/support/tool-context.js';
import { answerTitles, tuiEnv } from '../test/support/tmux.js';
import { interleaved, log, median, ms, spawnChecked, stats, type Row } from './lib.js';
import { snapshotBin } from './snapshot.js';
import { PtyRun, tuiRun, type StartupRun } from './tui-startup.js';

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
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
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

/** Every descendant of `pid` (Linux /proc, parent links). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The TUI in a TS project: start-up with the server discovered vs `"lsp": false` (interleaved), then
 * one run where a prompt makes the model view main.ts (the server starts), the TUI's RSS and the
 * server's read once the server's memory stops growing.
 */
async function tuiRows(runs: number): Promise<Row[]> {
  const fake = await startFakeProvider([], { sideTurn: answerTitles(), fallback: { text: 'hi' } });
  const withLsp = tsProject();
  const withoutLsp = tsProject();
  writeFileSync(join(withoutLsp, '.opencode.json'), JSON.stringify({ lsp: false }));
  for (const dir of [withLsp, withoutLsp]) {
    mkdirSync(join(dir, '.opencode'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'init'), '');
  }
  const env = tuiEnv(fake.anthropicBaseURL, { PATH: `${BIN_DIR}:${process.env.PATH}` });
  const snapshot = snapshotBin();
  const tui = quote(snapshot.bin);
  const rows: Row[] = [];
  try {
    log(`lsp: TUI start-up, TS server discovered vs "lsp": false (${runs} interleaved pty runs)`);
    await tuiRun(tui, withLsp, env);
    await tuiRun(tui, withoutLsp, env);
    const on: StartupRun[] = [];
    const off: StartupRun[] = [];
    for (let i = 0; i < runs; i++) {
      on.push(await tuiRun(tui, withLsp, env));
      off.push(await tuiRun(tui, withoutLsp, env));
    }
    for (const [name, pick] of [
      ['status bar complete', (r: StartupRun) => r.statusBarMs],
      ['full UI usable', (r: StartupRun) => r.usableMs],
    ] as const) {
      const a = median(on.map(pick));
      const b = median(off.map(pick));
      rows.push({
        section: S,
        name: `TUI ${name}, TS server discovered`,
        value: stats(on.map(pick)),
        ratio: `${(a / b).toFixed(2)}× of "lsp": false (${ms(b)})`,
        target: 'same',
        note: 'bin/opencode (shebang) in a 120×40 pty, spawn → the frame; servers start at the first file viewed, never before the first frame',
      });
    }

    log('lsp: TUI RSS with typescript-language-server running');
    fake.push(
      { toolCalls: [{ name: 'view', input: { file_path: join(withLsp, 'main.ts') } }] },
      { text: 'main.ts sums prices.' },
    );
    const pty = new PtyRun(tui, withLsp, env);
    try {
      await pty.next((p) => p.includes('ctrl+/ help'), true);
      pty.child.stdin.write('read main.ts');
      await sleep(300);
      pty.child.stdin.write('\r');
      const answered = await Promise.race([
        pty.next((p) => p.includes('main.ts sums prices.'), true),
        sleep(30_000).then(() => NaN),
      ]);
      if (Number.isNaN(answered))
        throw new Error(`the TUI never showed the answer; output:\n${pty.plain.slice(-2000)}`);
      const pid = pty.innerPid();
      if (!pid) throw new Error('no TUI process in the pty');
      // the server is up when its processes exist and their memory stopped growing (1 s apart)
      let serverRss = 0;
      let serverPids: number[] = [];
      for (let t = 0; t < 30; t++) {
        await sleep(1000);
        serverPids = descendants(pid);
        const now = serverPids.reduce((sum, p) => sum + rssMiB(p), 0);
        if (serverPids.length > 0 && now > 0 && Math.abs(now - serverRss) < 2) break;
        serverRss = now;
      }
      serverRss = serverPids.reduce((sum, p) => sum + rssMiB(p), 0);
      const tuiRss = rssMiB(pid);
      if (serverPids.length === 0) throw new Error('the language server never started under the TUI');
      rows.push({
        section: S,
        name: 'RSS of the TUI, one language server up',
        value: `${tuiRss.toFixed(0)} MiB`,
        target: '≤ 150 MB (steady)',
        note: "VmRSS of the TUI's node process after a prompt viewed main.ts and the server settled; the server not included",
      });
      rows.push({
        section: S,
        name: '  the server beside it',
        value: `${serverRss.toFixed(0)} MiB`,
        note: `${serverPids.length} processes under the TUI (typescript-language-server and its tsservers)`,
      });
    } finally {
      await pty.stop();
    }
  } finally {
    snapshot.dispose();
    await fake.close();
    for (const d of [withLsp, withoutLsp, env.HOME!]) rmSync(d, { recursive: true, force: true });
  }
  return rows;
}

function tsProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-lsp-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(
    join(dir, 'main.ts'),
    'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
  );
  return dir;
}

export async function benchLsp(options: { runs: number }): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = tsProject();
  const file = join(dir, 'main.ts');
  const plan = planServers(
    dir,
    { typescript: { command: join(BIN_DIR, 'typescript-language-server'), diagnosticsTimeoutMs: 60_000 } },
    '',
  );
  const service = new LspService({ root: dir, servers: plan.servers, env: process.env, watch: false });
  const ctx = { ...toolContext(dir), lsp: service };
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
      rows.push({
        section: S,
        name: 'RSS of the language server',
        value: `${serverRss.toFixed(0)} MiB`,
        note: `process group of typescript-language-server: ${group.length} processes (it and its tsservers), one small project`,
      });
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
    const env = cleanEnv({
      ANTHROPIC_API_KEY: 'sk-ant-bench',
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
      PATH: `${BIN_DIR}:${process.env.PATH}`,
    });
    // a copy of dist/ taken now: a rebuild meanwhile (tests, another bench) must not change the program
    const snapshot = snapshotBin();
    const bin = snapshot.bin;
    const t = await interleaved(options.runs, {
      discovered: () => spawnChecked(bin, ['-p', 'say hi'], { cwd: withLsp, env }),
      off: () => spawnChecked(bin, ['-p', 'say hi'], { cwd: withoutLsp, env }),
    });
    snapshot.dispose();
    rows.push({
      section: S,
      name: '-p "say hi", TS server discovered',
      value: stats(t.discovered),
      ratio: `${(median(t.discovered) / median(t.off)).toFixed(2)}× of "lsp": false (${ms(median(t.off))})`,
      target: 'same',
      note: 'spawn → exit; no server starts for a prompt that reads no file',
    });
  } finally {
    await fake.close();
  }
  rows.push(...(await tuiRows(options.runs)));
  return rows;
}
