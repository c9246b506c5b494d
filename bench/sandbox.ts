/**
 * What the OS sandbox adds to one bash call: the session shell (the bash tool's path) running `true`
 * with the sandbox on (bubblewrap, strict level) and off, interleaved round-robin so machine noise hits
 * both alike; the difference of the medians is the cost. Target ≤ 15 ms added. Skipped with a row
 * saying why where the sandbox cannot start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSandbox, sandboxSettings } from '../src/sandbox/index.js';
import { createShell } from '../src/tools/shell.js';
import { log, median, ms, stats, type Row } from './lib.js';

const S = 'sandbox';

export async function benchSandbox(options: { runs: number }): Promise<Row[]> {
  const project = mkdtempSync(join(tmpdir(), 'opencode-bench-sandbox-'));
  const on = createSandbox({
    settings: sandboxSettings('auto'),
    projectDir: project,
    home: process.env.HOME ?? project,
  });
  const status = await on.status();
  if (!status.active) {
    rmSync(project, { recursive: true, force: true });
    return [
      {
        section: S,
        name: 'one bash call, sandbox on vs off',
        value: 'skipped',
        note: `the sandbox cannot start here: ${status.reason}`,
      },
    ];
  }
  log(`sandbox: ${options.runs} bash calls each, on and off`);
  const shells = { on: createShell({ cwd: project, sandbox: on }), off: createShell({ cwd: project }) };
  const times = { on: [] as number[], off: [] as number[] };
  try {
    for (let i = 0; i < options.runs + 2; i++) {
      for (const which of ['on', 'off'] as const) {
        const t0 = performance.now();
        const result = await shells[which].exec('true', { timeoutMs: 10_000 });
        if (result.exitCode !== 0) throw new Error(`bash call with the sandbox ${which} failed: ${result.stderr}`);
        if (i >= 2) times[which].push(performance.now() - t0); // the first two warm the caches
      }
    }
  } finally {
    shells.on.close();
    shells.off.close();
    await on.close();
    rmSync(project, { recursive: true, force: true });
  }
  const added = median(times.on) - median(times.off);
  return [
    {
      section: S,
      name: 'one bash call, sandbox on (strict)',
      value: stats(times.on),
      ratio: `${(median(times.on) / median(times.off)).toFixed(2)}× of off`,
      note: 'the session shell running `true` in bubblewrap: read-only root, project bound, no network; spawn → state read back',
    },
    { section: S, name: '  sandbox off', value: stats(times.off) },
    {
      section: S,
      name: '  added by the sandbox',
      value: ms(added),
      target: '≤ 15 ms',
      note: 'difference of the medians',
    },
  ];
}
