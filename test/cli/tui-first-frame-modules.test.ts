/**
 * What the TUI loads before its first full frame: the modules interactive.ts imports for it
 * and everything they import statically, as esbuild splits them for bin/opencode. The schema's zod,
 * the providers' SDKs, MCP, LSP clients and the grammars load after the frame; this is the test that
 * fails when an import brings one of them back onto that path (as `tools/tool.ts`'s ToolError once
 * brought zod through the file picker).
 */
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Packages the first frame does not need: the schema, the providers, MCP and ACP, LSP, the tools' and grammars' libraries. */
const AFTER_THE_FRAME = [
  'zod',
  '@anthropic-ai/sdk',
  'openai',
  '@modelcontextprotocol/sdk',
  '@agentclientprotocol/sdk',
  'vscode-jsonrpc',
  'lowlight',
  'execa',
  'fast-glob',
  'chardet',
  'iconv-lite',
  'mvdan-sh',
  'turndown',
  'yaml',
  'ignore',
];

/** The packages of node_modules among `inputs` (`zod`, `@scope/name`). */
function packagesOf(inputs: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const input of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) names.add(m[1]!);
  }
  return [...names].sort();
}

/**
 * The inputs of the output files reached from `start` by static imports only, and the Node built-ins they import.
 */
function staticClosure(meta: Metafile, start: string[]): { inputs: Set<string>; builtins: Set<string> } {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const builtins = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const output = meta.outputs[file]!;
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const i of output.imports) {
      if (i.kind !== 'import-statement' && i.kind !== 'require-call') continue;
      if (!i.external) queue.push(i.path);
      else if (i.path.startsWith('node:')) builtins.add(i.path);
    }
  }
  return { inputs, builtins };
}

describe("the TUI's first frame", () => {
  it('loads neither zod nor the SDKs, MCP, LSP clients or grammars', async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'src/cli/interactive.ts')],
      absWorkingDir: ROOT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['@vscode/ripgrep', 'react-devtools-core', 'jiti'],
      alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    });
    const meta = result.metafile;
    const entry = Object.keys(meta.outputs).find(
      (file) => meta.outputs[file]!.entryPoint === 'src/cli/interactive.ts',
    )!;
    // the dynamic imports interactive.ts makes before the frame: all of them but -d's debug log
    const firstFrame = meta.outputs[entry]!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map(
      (i) => i.path,
    );
    const debugLog = firstFrame.filter((file) =>
      Object.keys(meta.outputs[file]!.inputs).includes('src/cli/debug-log.ts'),
    );
    expect(debugLog).toHaveLength(1);
    const { inputs, builtins } = staticClosure(meta, [entry, ...firstFrame.filter((file) => !debugLog.includes(file))]);
    // the app and the providers' clients load after the frame (app-loader.ts imports the app dynamically)
    expect(
      [...inputs].filter((input) =>
        /^src\/((app\/app|tools\/tool|agent\/agent|lsp\/client|provider\/anthropic|provider\/openai)\.ts$|mcp\/)/.test(
          input,
        ),
      ),
    ).toEqual([]);
    expect(packagesOf(inputs).filter((name) => AFTER_THE_FRAME.includes(name))).toEqual([]);
    // the providers' HTTP clients (node:http loads https, tls and more: ~20 ms) and the workers load later
    expect([...builtins].filter((name) => /^node:(https?|tls|http2|zlib|worker_threads)$/.test(name))).toEqual([]);
    // what it does load, read as a list: Ink and React, the editor's and transcript's helpers
    expect(packagesOf(inputs)).toContain('ink');
  });
});
