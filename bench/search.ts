/**
 * Search: ripgrep run directly vs our grep and glob tools (called in-process through `tool.run`, as
 * the agent calls them) on the generated tree and on a real tree (`realRepoTree`, bench/tree.ts),
 * plus each engine the tools can choose (SEARCH_ENGINES in src/tools/ripgrep.ts).
 *
 * The tools cap results at 100, so "rg -l" is not the same work: the grep tool runs
 * `rg --null --line-number --max-count 101 …` (every matching line, plain text), parses it, stats
 * each matching file and sorts by mtime; the glob tool lists every file (in-process on ≤ 2 cores,
 * else `rg --files --null -L`), matches every path against the glob and keeps the 100 shortest. The
 * baseline is rg run as a person would (`rg --files`, `rg -l PATTERN`, default threads).
 */
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { grepTool } from '../src/tools/grep.js';
import { globTool } from '../src/tools/glob.js';
import { availableParallelism } from 'node:os';
import { findRipgrep, searchEngine } from '../src/tools/ripgrep.js';
import type { ToolResult } from '../src/tools/tool.js';
import { toolContext } from '../test/support/tool-context.js';
import { interleaved, log, median, ratio, spawnChecked, stats, type Row } from './lib.js';
import { NEEDLE, REAL_REPO_NEEDLE, type RealRepo, type Tree } from './tree.js';

/**
 * The exact rg arguments a tool run passes: `fn` runs with OPENCODE_RIPGREP_PATH pointing at a
 * wrapper script that records its arguments and execs the real rg.
 */
async function recordRgArgs(rg: string, fn: () => Promise<unknown>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-rg-'));
  const wrapper = join(dir, 'rg');
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\0' "$@" > '${dir}/args'\nexec '${rg}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const saved = process.env.OPENCODE_RIPGREP_PATH;
  process.env.OPENCODE_RIPGREP_PATH = wrapper;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env.OPENCODE_RIPGREP_PATH;
    else process.env.OPENCODE_RIPGREP_PATH = saved;
  }
  const args = readFileSync(join(dir, 'args'), 'utf8').split('\0').slice(0, -1);
  rmSync(dir, { recursive: true, force: true });
  return args;
}

function rgOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'rg'), constants.X_OK);
      return join(dir, 'rg');
    } catch {
      // next
    }
  }
  return undefined;
}

async function withoutRipgrep<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.OPENCODE_DISABLE_RIPGREP;
  process.env.OPENCODE_DISABLE_RIPGREP = '1';
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.OPENCODE_DISABLE_RIPGREP;
    else process.env.OPENCODE_DISABLE_RIPGREP = saved;
  }
}

export async function benchSearch(tree: Tree, opts: { runs: number }): Promise<Row[]> {
  const rg = await findRipgrep();
  if (!rg) return [{ section: 'search', name: 'ripgrep', value: 'skipped', note: 'no rg found (findRipgrep)' }];
  const pathRg = rgOnPath();
  const cwd = tree.root;
  const ctx = toolContext(cwd);
  const lines = (s: string, sep = '\n') => s.split(sep).filter(Boolean).length;

  // sanity: the tree is what it claims, and both tool paths give the same answer
  const rgL = await spawnChecked(rg, ['-l', NEEDLE], { cwd });
  if (lines(rgL.stdout) !== tree.needleFiles)
    throw new Error(`rg -l found ${lines(rgL.stdout)} files, expected ${tree.needleFiles}`);
  const grep = (): Promise<ToolResult> => grepTool.run({ pattern: NEEDLE, path: cwd }, ctx);
  const glob = (): Promise<ToolResult> => globTool.run({ pattern: '**/*.ts', path: cwd }, ctx);
  const grepRg = await grep();
  const grepJs = await withoutRipgrep(grep);
  // rg itself, even where SEARCH_ENGINES picks the Node walk for glob (≤ 2 cores)
  const globRg = await withEnvVar('OPENCODE_RIPGREP_THREADS', 'default', glob);
  const globJs = await withoutRipgrep(glob);
  // one matching line per needle file
  if (
    grepRg.metadata?.number_of_matches !== Math.min(100, tree.needleFiles) ||
    globRg.metadata?.number_of_files !== 100
  ) {
    throw new Error(`tools returned ${JSON.stringify([grepRg.metadata, globRg.metadata])}, expected ≤ 100 each`);
  }
  const sameGrep = grepRg.output === grepJs.output ? 'same output' : 'OUTPUT DIFFERS';
  const sameGlob = globRg.output === globJs.output ? 'same output' : 'OUTPUT DIFFERS';
  const rgFiles = await spawnChecked(rg, ['--files'], { cwd });
  const GREP_TOOL_ARGS = await recordRgArgs(rg, grep);
  const GLOB_TOOL_ARGS = await recordRgArgs(rg, glob);

  log(`search: grep, ${opts.runs} interleaved runs on ${tree.files} files`);
  const g = await interleaved(opts.runs, {
    rgL: () => spawnChecked(rg, ['-l', NEEDLE], { cwd }),
    ...(pathRg ? { pathRgL: () => spawnChecked(pathRg, ['-l', NEEDLE], { cwd }) } : {}),
    rgTool: () => spawnChecked(rg, GREP_TOOL_ARGS, { cwd }),
    tool: grep,
  } as Record<string, () => Promise<unknown>>);
  log(`search: glob, ${opts.runs} interleaved runs`);
  const f = await interleaved(opts.runs, {
    rgFiles: () => spawnChecked(rg, ['--files'], { cwd }),
    ...(pathRg ? { pathRgFiles: () => spawnChecked(pathRg, ['--files'], { cwd }) } : {}),
    rgTool: () => spawnChecked(rg, GLOB_TOOL_ARGS, { cwd }),
    tool: glob,
  } as Record<string, () => Promise<unknown>>);
  log(`search: Node fallbacks (OPENCODE_DISABLE_RIPGREP=1), ${opts.runs} runs each`);
  const fb = await withoutRipgrep(() => interleaved(opts.runs, { grep, glob }));

  const m = (t: number[] | undefined) => median(t!);
  const S = 'search';
  const rows: Row[] = [
    {
      section: S,
      name: `rg -l ${NEEDLE}`,
      value: stats(g.rgL!),
      ratio: '1.00×',
      note: `bundled rg (${rg.includes('@vscode') ? '@vscode/ripgrep' : rg}), spawn → exit, lists ${tree.needleFiles} of ${tree.files} files`,
    },
    pathRg
      ? {
          section: S,
          name: `rg -l (PATH ${pathRg})`,
          value: stats(g.pathRgL!),
          ratio: ratio(m(g.pathRgL), m(g.rgL)),
          note: 'rg on PATH, same command',
        }
      : { section: S, name: 'rg -l (rg on PATH)', value: 'skipped', note: 'no rg on PATH' },
    {
      section: S,
      name: 'rg as the grep tool runs it',
      value: stats(g.rgTool!),
      ratio: ratio(m(g.rgTool), m(g.rgL)),
      note: `rg ${GREP_TOOL_ARGS.join(' ')} (every matching line as JSON, output collected)`,
    },
    {
      section: S,
      name: 'grep tool (rg)',
      value: stats(g.tool!),
      ratio: `${ratio(m(g.tool), m(g.rgL))} rg -l; ${ratio(m(g.tool), m(g.rgTool))} its rg cmd`,
      note: `grepTool.run in-process: spawn rg --json, parse, stat + sort ${tree.needleFiles} files by mtime, format ≤ 100 lines`,
    },
    {
      section: S,
      name: 'grep tool (Node fallback)',
      value: stats(fb.grep),
      ratio: `${ratio(m(fb.grep), m(g.rgL))} rg -l`,
      note: `OPENCODE_DISABLE_RIPGREP=1: walk with .gitignore + read every file; ${sameGrep} as the rg path`,
    },
    {
      section: S,
      name: 'rg --files',
      value: stats(f.rgFiles!),
      ratio: '1.00×',
      note: `bundled rg, lists ${lines(rgFiles.stdout)} visible files`,
    },
    pathRg
      ? {
          section: S,
          name: `rg --files (PATH ${pathRg})`,
          value: stats(f.pathRgFiles!),
          ratio: ratio(m(f.pathRgFiles), m(f.rgFiles)),
          note: 'rg on PATH',
        }
      : { section: S, name: 'rg --files (rg on PATH)', value: 'skipped', note: 'no rg on PATH' },
    {
      section: S,
      name: 'rg as the glob tool runs it',
      value: stats(f.rgTool!),
      ratio: ratio(m(f.rgTool), m(f.rgFiles)),
      note: `rg ${GLOB_TOOL_ARGS.join(' ')}`,
    },
    {
      section: S,
      name: `glob tool **/*.ts (${searchEngine('glob').engine === 'node' ? 'Node walk: SEARCH_ENGINES on this machine' : 'rg'})`,
      value: stats(f.tool!),
      ratio: `${ratio(m(f.tool), m(f.rgFiles))} rg --files; ${ratio(m(f.tool), m(f.rgTool))} its rg cmd`,
      note: `globTool.run in-process: rg --files, match ${tree.visibleTs} .ts of ${tree.visible} paths, keep the 100 shortest`,
    },
    {
      section: S,
      name: 'glob tool **/*.ts (Node walk, forced)',
      value: stats(fb.glob),
      ratio: `${ratio(m(fb.glob), m(f.rgFiles))} rg --files`,
      note: `OPENCODE_DISABLE_RIPGREP=1: Node walk with .gitignore; ${sameGlob} as the rg path`,
    },
  ];
  return rows;
}

async function withEnvVar<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

/**
 * The real tree: `rg --files` and `rg -l` (default threads) against the tools as they run here
 * (the engine SEARCH_ENGINES picks for this machine's cores) and against each other engine,
 * interleaved. Throws when any engine's output differs from the Node walk's.
 */
export async function benchSearchReal(repo: RealRepo, opts: { runs: number }): Promise<Row[]> {
  const rg = await findRipgrep();
  if (!rg) return [{ section: 'search (real)', name: 'ripgrep', value: 'skipped', note: 'no rg found (findRipgrep)' }];
  const cwd = repo.root;
  const ctx = toolContext(cwd);
  const glob = (): Promise<ToolResult> => globTool.run({ pattern: '**/*.ts' }, ctx);
  const grep = (): Promise<ToolResult> => grepTool.run({ pattern: REAL_REPO_NEEDLE }, ctx);
  const engines = {
    node: <T>(fn: () => Promise<T>) => withoutRipgrep(fn),
    'rg default threads': <T>(fn: () => Promise<T>) => withEnvVar('OPENCODE_RIPGREP_THREADS', 'default', fn),
    'rg -j1': <T>(fn: () => Promise<T>) => withEnvVar('OPENCODE_RIPGREP_THREADS', '1', fn),
  };
  for (const tool of [glob, grep]) {
    const want = (await engines.node(tool)).output;
    for (const [name, run] of Object.entries(engines)) {
      if ((await run(tool)).output !== want)
        throw new Error(`real tree: ${name} gives another output than the Node walk`);
    }
    if ((await tool()).output !== want)
      throw new Error('real tree: the chosen engine gives another output than the Node walk');
  }
  const visible = (await spawnChecked(rg, ['--files'], { cwd })).stdout.split('\n').filter(Boolean).length;
  const hits = (await spawnChecked(rg, ['-l', REAL_REPO_NEEDLE], { cwd })).stdout.split('\n').filter(Boolean).length;
  log(`search (real tree, ${repo.files} files): glob, ${opts.runs} interleaved runs`);
  const f = await interleaved(opts.runs, {
    rgFiles: () => spawnChecked(rg, ['--files'], { cwd }),
    tool: glob,
    node: () => engines.node(glob),
    rgDefault: () => engines['rg default threads'](glob),
    rgJ1: () => engines['rg -j1'](glob),
  });
  log(`search (real tree): grep, ${opts.runs} interleaved runs`);
  const g = await interleaved(opts.runs, {
    rgL: () => spawnChecked(rg, ['-l', REAL_REPO_NEEDLE], { cwd }),
    tool: grep,
    node: () => engines.node(grep),
    rgJ1: () => engines['rg -j1'](grep),
  });
  const S = 'search (real)';
  const m = median;
  const chosen = (job: 'glob' | 'grep') => {
    const e = searchEngine(job);
    return e.engine === 'node' ? 'Node walk' : `rg ${e.args.join(' ') || 'default threads'}`;
  };
  return [
    {
      section: S,
      name: 'rg --files',
      value: stats(f.rgFiles),
      ratio: '1.00×',
      note: `${visible} visible of ${repo.files} files (${cwd}), default threads`,
    },
    {
      section: S,
      name: `glob tool **/*.ts (${chosen('glob')})`,
      value: stats(f.tool),
      ratio: ratio(m(f.tool), m(f.rgFiles)),
      note: `as it runs on this machine (${availableParallelism()} cores); target ≤ 1.10×`,
    },
    {
      section: S,
      name: '  glob via the Node walk',
      value: stats(f.node),
      ratio: ratio(m(f.node), m(f.rgFiles)),
      note: 'same output',
    },
    {
      section: S,
      name: '  glob via rg, default threads',
      value: stats(f.rgDefault),
      ratio: ratio(m(f.rgDefault), m(f.rgFiles)),
      note: 'same output',
    },
    {
      section: S,
      name: '  glob via rg -j1',
      value: stats(f.rgJ1),
      ratio: ratio(m(f.rgJ1), m(f.rgFiles)),
      note: 'same output',
    },
    {
      section: S,
      name: `rg -l ${REAL_REPO_NEEDLE}`,
      value: stats(g.rgL),
      ratio: '1.00×',
      note: `${hits} files, default threads`,
    },
    {
      section: S,
      name: `grep tool (${chosen('grep')})`,
      value: stats(g.tool),
      ratio: ratio(m(g.tool), m(g.rgL)),
      note: 'as it runs on this machine; target ≤ 1.10×',
    },
    {
      section: S,
      name: '  grep via the Node walk',
      value: stats(g.node),
      ratio: ratio(m(g.node), m(g.rgL)),
      note: 'same output',
    },
    {
      section: S,
      name: '  grep via rg -j1',
      value: stats(g.rgJ1),
      ratio: ratio(m(g.rgJ1), m(g.rgL)),
      note: 'same output',
    },
  ];
}
