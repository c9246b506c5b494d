/**
 * Custom tools: what loading 50 declarative tools and 5 TypeScript plugins adds before the
 * first request of `opencode -p` (target ≤ 150 ms; the TUI loads them after its first frame, so they
 * add nothing to it), and the prompt budget with and without 10 custom tools.
 *
 * Load cost: `bin/opencode -p` against the loopback fake provider, spawn → first request received,
 * in an empty project and in one with the custom tools, runs interleaved; the difference of the
 * medians is the cost. jiti's transform cache (in the OS temp dir) is warm after the first run, as it
 * is for a person after their first start, and so is the tool-file cache in `.opencode/`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_TREE_MAX_ENTRIES, systemPrompt } from '../src/agent/prompts.js';
import { DEFAULT_CONTEXT_PATHS } from '../src/config/schema.js';
import { loadCustomTools } from '../src/custom/load.js';
import { builtinTools } from '../src/tools/index.js';
import { projectTree } from '../src/tools/ls.js';
import { cleanEnv } from '../test/support/cli.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { log, median, ms, smallProject, type Row } from './lib.js';
import { snapshotBin } from './snapshot.js';

const BUDGET = 24_000;
const S = 'custom tools';

/** A realistic declarative tool: a description of a few sentences and two parameters. */
function toolFile(i: number): string {
  return [
    `name: query_service_${i}`,
    `description: >-`,
    `  The current status of service ${i} from the monitoring API: state, error rate and the last deploy.`,
    `  Use it before answering whether the service is up. Not for metrics over time.`,
    `parameters:`,
    `  type: object`,
    `  properties:`,
    `    region: { type: string, description: 'Region, e.g. "eu-west-1".' }`,
    `    verbose: { type: boolean, description: Include the last five incidents. }`,
    `  required: [region]`,
    `command: [echo, "{{region}}"]`,
    `readOnly: true`,
    '',
  ].join('\n');
}

function pluginFile(i: number): string {
  return `import { tool, definePlugin, z } from 'opencode/plugin';
export default definePlugin(async () => ({
  tools: { plugin_tool_${i}: tool({ description: 'Plugin tool ${i}.', args: z.object({ q: z.string().describe('query') }), execute: async ({ q }: { q: string }) => q }) },
  hooks: { 'tool.execute.before': async (call) => (call.tool === 'view' && String(call.args.file_path).endsWith('.env') ? { block: 'no' } : undefined) },
}));
`;
}

function projectWith(tools: number, plugins: number): string {
  const dir = smallProject();
  mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  for (let i = 0; i < tools; i++) writeFileSync(join(dir, '.opencode', 'tools', `service-${i}.yaml`), toolFile(i));
  for (let i = 0; i < plugins; i++) writeFileSync(join(dir, '.opencode', 'plugins', `plugin-${i}.ts`), pluginFile(i));
  return dir;
}

/** spawn → the fake provider receives the first request, in ms. */
async function timeToFirstRequest(BIN: string, cwd: string): Promise<number> {
  let firstAt = NaN;
  const fake = await startFakeProvider([{ text: 'ok' }], {
    sideTurn: () => {
      if (Number.isNaN(firstAt)) firstAt = performance.now();
      return undefined;
    },
  });
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '-p', 'hi', '-q'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (c) =>
      c === 0 ? resolve(c) : reject(new Error(`opencode -p exited ${c}: ${stderr.slice(0, 300)}`)),
    );
  });
  await fake.close();
  rmSync(env.HOME!, { recursive: true, force: true });
  if (code !== 0 || Number.isNaN(firstAt)) throw new Error('no request reached the fake provider');
  return firstAt - t0;
}

export async function benchCustomTools(options: { runs: number }): Promise<Row[]> {
  log('custom tools: -p time to first request, without and with 50 declarative tools + 5 plugins');
  const plain = projectWith(0, 0);
  const custom = projectWith(50, 5);
  const without: number[] = [];
  const withTools: number[] = [];
  const snapshot = snapshotBin();
  await timeToFirstRequest(snapshot.bin, custom); // warm the caches (jiti's, the tool files', the plugins') and the OS's file cache
  for (let i = 0; i < options.runs; i++) {
    without.push(await timeToFirstRequest(snapshot.bin, plain));
    withTools.push(await timeToFirstRequest(snapshot.bin, custom));
  }
  snapshot.dispose();
  const added = median(withTools) - median(without);

  // in-process: the load alone, for the breakdown (the first load pays jiti's import)
  // with the caches the runs above filled (no YAML parsed, no jiti imported), then without any
  const warm = await loadCustomTools({
    projectDir: custom,
    config: { tools: {}, plugins: [] },
    registry: builtinTools(),
    cacheDir: join(custom, '.opencode'),
  });
  const registry = builtinTools();
  const report = await loadCustomTools({ projectDir: custom, config: { tools: {}, plugins: [] }, registry });
  const again = await loadCustomTools({
    projectDir: custom,
    config: { tools: {}, plugins: [] },
    registry: builtinTools(),
  });

  // the prompt budget: the system prompt plus the tool schemas, with 10 of the tools above
  const ten = projectWith(10, 0);
  const tenRegistry = builtinTools();
  await loadCustomTools({ projectDir: ten, config: { tools: {}, plugins: [] }, registry: tenRegistry });
  const system = systemPrompt('coder', {
    cwd: ten,
    projectTree: projectTree(ten, PROJECT_TREE_MAX_ENTRIES),
    contextPaths: DEFAULT_CONTEXT_PATHS,
  }).length;
  const builtinOnly = system + JSON.stringify(builtinTools().schemas()).length;
  const withTen = system + JSON.stringify(tenRegistry.schemas()).length;
  for (const dir of [plain, custom, ten]) rmSync(dir, { recursive: true, force: true });

  const pct = (n: number) => `${((100 * n) / BUDGET).toFixed(0)}% of budget`;
  return [
    {
      section: S,
      name: '-p first request, no custom tools',
      value: ms(median(without)),
      note: `spawn → first request at the fake provider, median of ${options.runs}`,
    },
    {
      section: S,
      name: '-p first request, 50 tools + 5 plugins',
      value: ms(median(withTools)),
      note: '50 YAML tools, 5 .ts plugins each with a zod tool and a before-hook',
    },
    {
      section: S,
      name: 'added before the first request',
      value: ms(added),
      target: `≤ 150 ms (${added <= 150 ? 'met' : 'missed'})`,
      note: 'difference of the medians; the TUI loads after its first frame',
    },
    {
      section: S,
      name: 'loadCustomTools() in-process, cached',
      value: ms(warm.elapsedMs),
      note: `${warm.tools.length} tools from the tool-file cache and the transpiled plugins in .opencode/ (no YAML parse, no jiti import)`,
    },
    {
      section: S,
      name: 'loadCustomTools() in-process',
      value: `${ms(report.elapsedMs)} first, ${ms(again.elapsedMs)} again`,
      note: `${report.tools.length} tools, without the tool-file cache (every YAML file parsed); the first load imports jiti and yaml`,
    },
    {
      section: S,
      name: 'prompt, built-in tools',
      value: `${builtinOnly} chars`,
      ratio: pct(builtinOnly),
      target: `≤ ${BUDGET} (${builtinOnly <= BUDGET ? 'met' : 'missed'})`,
      note: 'coder system prompt + built-in tool schemas (JSON)',
    },
    {
      section: S,
      name: 'prompt, + 10 custom tools',
      value: `${withTen} chars`,
      ratio: pct(withTen),
      target: `≤ ${BUDGET} (${withTen <= BUDGET ? 'met' : 'missed'})`,
      note: `10 tools like the README's: +${withTen - builtinOnly} chars, ${Math.round((withTen - builtinOnly) / 10)} per tool`,
    },
  ];
}
