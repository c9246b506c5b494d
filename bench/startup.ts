/**
 * Start-up: wall time (spawn → exit) of `node -e 0`, `bin/opencode --version` and
 * `bin/opencode -p "say hi" -q` against the fake provider (one text turn), runs interleaved so
 * machine noise hits all three alike; plus the peak RSS of the -p run via /usr/bin/time.
 * bin/opencode is run as a shell runs it: the file itself, so its shebang (`/bin/sh`, whose one line
 * picks Node's flags and execs `node`: none for these runs) is part of the time; a diagnostic line runs
 * `node bin/opencode --version` to show what the shebang costs.
 * The untimed warm-up runs also write the V8 code cache of each kind of run (src/cli/code-cache.ts,
 * in this user's `$TMPDIR/opencode-code-cache-<uid>`), so the timed runs start from it, as every run
 * after a person's first does.
 * The -p time is split at the moment its answer reaches stdout: before = start-up + the request,
 * after = the tail until the process exits. A second -p runs against a local server
 * (`LOCAL_ENDPOINT`, the same fake): its model is found by listing the server's models (through
 * node:http, src/provider/resolve.ts: with Node's fetch, undici's WebAssembly HTTP parser ran, and
 * V8's optimising compile of it held the exit); that run's tail shows it.
 */
import { accessSync, constants, rmSync } from 'node:fs';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { cleanEnv } from '../test/support/cli.js';
import { log, median, ratio, smallProject, spawnChecked, stats, type Row } from './lib.js';
import { snapshotBin } from './snapshot.js';

type Cmd = readonly [string, readonly string[]];

export async function benchStartup(opts: { runs: number }): Promise<Row[]> {
  const fake = await startFakeProvider([], { fallback: { text: 'hi' } });
  const dir = smallProject();
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  // the local provider alone (no key): its default model is the first the server lists
  const localEnv: Record<string, string> = { ...env, LOCAL_ENDPOINT: fake.url };
  delete localEnv.ANTHROPIC_API_KEY;
  delete localEnv.ANTHROPIC_BASE_URL;
  // a private copy: a concurrent rebuild of dist/ cannot break a run
  const snapshot = snapshotBin();
  const BIN = snapshot.bin;
  try {
    const node = process.execPath;
    const commands: Record<'node' | 'version' | 'prompt' | 'nodeVersion' | 'localPrompt', Cmd> = {
      node: [node, ['-e', '0']],
      version: [BIN, ['--version']],
      prompt: [BIN, ['-p', 'say hi', '-q']],
      nodeVersion: [node, [BIN, '--version']],
      localPrompt: [BIN, ['-p', 'say hi', '-q']],
    };
    const envOf = (key: keyof typeof commands) => (key === 'localPrompt' ? localEnv : env);
    // warm-up: also creates the project's .opencode/opencode.db, so timed -p runs open an existing db
    const first = await spawnChecked(...commands.prompt, { cwd: dir, env });
    if (first.stdout.trim() !== 'hi') throw new Error(`-p printed ${JSON.stringify(first.stdout)}, expected "hi"`);
    await spawnChecked(...commands.version, { cwd: dir, env });
    const local = await spawnChecked(...commands.localPrompt, { cwd: dir, env: localEnv });
    if (local.stdout.trim() !== 'hi')
      throw new Error(`-p with LOCAL_ENDPOINT printed ${JSON.stringify(local.stdout)}, expected "hi"`);

    const times: Record<keyof typeof commands, number[]> = {
      node: [],
      version: [],
      prompt: [],
      nodeVersion: [],
      localPrompt: [],
    };
    const answered: Record<'prompt' | 'localPrompt', number[]> = { prompt: [], localPrompt: [] };
    log(
      `start-up: ${opts.runs} interleaved runs of node -e 0 / --version / -p / node bin/opencode --version / -p with LOCAL_ENDPOINT`,
    );
    for (let i = 0; i < opts.runs; i++) {
      for (const key of Object.keys(commands) as (keyof typeof commands)[]) {
        const r = await spawnChecked(...commands[key], { cwd: dir, env: envOf(key) });
        times[key].push(r.ms);
        if (key === 'prompt' || key === 'localPrompt') answered[key].push(r.firstStdoutMs);
      }
    }
    const tailsOf = (key: 'prompt' | 'localPrompt') => times[key].map((t, i) => t - answered[key][i]!);
    const base = median(times.node);
    const rows: Row[] = [
      {
        section: 'start-up',
        name: 'node -e 0',
        value: stats(times.node),
        ratio: '1.00×',
        note: 'baseline: bare Node start and exit',
      },
      {
        section: 'start-up',
        name: 'opencode --version',
        value: stats(times.version),
        ratio: ratio(median(times.version), base),
        target: '≤ 1.20× node -e 0',
        note: 'bin/opencode run through its shebang (/bin/sh execs node, no V8 flag for --version): reads package.json, prints',
      },
      {
        section: 'start-up',
        name: '  diagnostic: node bin/opencode --version',
        value: stats(times.nodeVersion),
        ratio: ratio(median(times.nodeVersion), base),
        note: 'the same without the shebang (no /bin/sh): what the shebang costs',
      },
      {
        section: 'start-up',
        name: 'opencode -p "say hi" -q',
        value: stats(times.prompt),
        ratio: ratio(median(times.prompt), base),
        target: `≤ 600 ms absolute (${median(times.prompt) <= 600 ? 'met' : 'missed'})`,
        note: 'through the shebang: config, model resolve, open existing SQLite db, one Anthropic SSE turn from the loopback fake, print, exit',
      },
      {
        section: 'start-up',
        name: '  -p: spawn → answer on stdout',
        value: stats(answered.prompt),
        ratio: ratio(median(answered.prompt), base),
        note: 'module loading + config + db + the provider round trip',
      },
      {
        section: 'start-up',
        name: '  -p: answer → exit',
        value: stats(tailsOf('prompt')),
        note: 'answer printed and db closed, process not yet exited',
      },
      {
        section: 'start-up',
        name: 'opencode -p "say hi" -q, local server (LOCAL_ENDPOINT)',
        value: stats(times.localPrompt),
        ratio: ratio(median(times.localPrompt), base),
        note: 'the same against the fake as an OpenAI-compatible local server: its models listed first (node:http, src/provider/resolve.ts)',
      },
      {
        section: 'start-up',
        name: '  -p, local server: answer → exit',
        value: stats(tailsOf('localPrompt')),
        note: "the listing no longer runs undici's WebAssembly parser, whose optimising compile held the exit (~100–160 ms more, +30 MB RSS: BENCHMARKS.md)",
      },
    ];
    rows.push(await peakRss(commands.prompt, dir, env, commands.node));
    return rows;
  } finally {
    snapshot.dispose();
    await fake.close();
    for (const d of [dir, env.HOME!]) rmSync(d, { recursive: true, force: true });
  }
}

/** Median peak RSS (KB, from `/usr/bin/time -f %M`) of the -p run, beside `node -e 0`'s. */
async function peakRss(prompt: Cmd, cwd: string, env: Record<string, string>, node: Cmd): Promise<Row> {
  const TIME = '/usr/bin/time';
  try {
    accessSync(TIME, constants.X_OK);
  } catch {
    return { section: 'start-up', name: 'peak RSS of -p', value: 'skipped', note: `${TIME} not found` };
  }
  const rss = async (cmd: Cmd) => {
    const kb: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await spawnChecked(TIME, ['-f', '%M', cmd[0], ...cmd[1]], { cwd, env });
      kb.push(Number(r.stderr.trim().split('\n').at(-1)));
    }
    return median(kb) / 1024;
  };
  const p = await rss(prompt);
  const n = await rss(node);
  return {
    section: 'start-up',
    name: 'peak RSS of -p',
    value: `${p.toFixed(0)} MB`,
    ratio: `${(p / n).toFixed(2)}× (node -e 0: ${n.toFixed(0)} MB)`,
    note: `max resident set size, ${TIME} -f %M, median of 3`,
  };
}
