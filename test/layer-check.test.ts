/**
 * The layer check's rules (.dependency-cruiser.cjs, run by `npm run lint:layers`) on a small project
 * of their own: each kind of import the rules forbid is reported, once, by the rule that names it,
 * and the imports the layers allow are not.
 */
import { symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir, writeTree } from './support/temp-tree.js';

const ROOT = join(import.meta.dirname, '..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

afterAll(cleanupTempDirs);

/** The violations the repository's rules find in the project `files`, as `rule: from -> to`. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = tempDir();
  writeTree(dir, {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, jsx: 'react-jsx' },
      include: ['src'],
    }),
    ...files,
  });
  // Ink resolves from the repository's own packages, as it does for src/
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const result = await cruise(
    ['src'],
    { ...config.options, baseDir: dir, ruleSet: { forbidden: config.forbidden }, validate: true },
    {},
    { tsConfig: extractTSConfig(join(dir, 'tsconfig.json')) },
  );
  const output = result.output as ICruiseResult;
  return output.summary.violations
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`)
    .sort();
}

describe('the layer check', () => {
  it('reports an import up a layer, a type-only one too', async () => {
    expect(
      await violations({
        'src/db/store.ts': "import type { Agent } from '../agent/agent.js';\nexport type Row = Agent;\n",
        'src/agent/agent.ts':
          "import type { Row } from '../tools/registry.js';\nexport interface Agent { row?: Row }\n",
        'src/tools/registry.ts': 'export interface Row { id: string }\n',
      }),
    ).toEqual(['layer-db: src/db/store.ts -> src/agent/agent.ts']);
  });

  it('reports an import between two folders of one layer', async () => {
    expect(
      await violations({
        'src/acp/run.ts': "import { startTui } from '../tui/run.js';\nexport const run = startTui;\n",
        'src/tui/run.ts': 'export function startTui(): void {}\n',
      }),
    ).toEqual(['layer-acp: src/acp/run.ts -> src/tui/run.ts']);
  });

  it('reports a cycle of type-only imports inside one folder', async () => {
    expect(
      await violations({
        'src/tools/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
        'src/tools/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
      }),
    ).toEqual(['no-circular: src/tools/a.ts -> src/tools/b.ts']);
  });

  it('reports Ink outside the TUI, and a TUI call into the database but not a type it names', async () => {
    expect(
      await violations({
        'src/agent/view.ts': "import { render } from 'ink';\nexport const show = render;\n",
        'src/tui/list.ts':
          "import { openStore, type Row } from '../db/store.js';\nexport const rows: Row[] = [];\nexport const open = openStore;\n",
        'src/tui/item.ts': "import type { Row } from '../db/store.js';\nexport type Item = Row;\n",
        'src/db/store.ts': 'export interface Row { id: string }\nexport function openStore(): void {}\n',
      }),
    ).toEqual([
      'tui-no-storage-or-provider-calls: src/tui/list.ts -> src/db/store.ts',
      'ui-only-in-tui: src/agent/view.ts -> node_modules/ink/build/index.js',
    ]);
  });

  it('reports an import of a folder that is in no layer', async () => {
    expect(
      await violations({
        'src/agent/agent.ts': "import { helper } from '../helpers/helper.js';\nexport const run = helper;\n",
        'src/helpers/helper.ts': 'export function helper(): void {}\n',
      }),
    ).toEqual(['in-a-layer: src/agent/agent.ts -> src/helpers/helper.ts']);
  });

  it('lets every folder import the layers below it', async () => {
    expect(
      await violations({
        'src/cli/main.ts':
          "import { run } from '../acp/run.js';\nimport { startTui } from '../tui/run.js';\nexport const both = [run, startTui];\n",
        'src/acp/run.ts': "import { createApp } from '../app/app.js';\nexport const run = createApp;\n",
        'src/tui/run.ts': "import { createApp } from '../app/app.js';\nexport const startTui = createApp;\n",
        'src/app/app.ts':
          "import { Agent } from '../agent/agent.js';\nimport { undo } from '../undo/undo.js';\nexport function createApp(): unknown { return [new Agent(), undo]; }\n",
        'src/undo/undo.ts':
          "import type { Agent } from '../agent/agent.js';\nimport { pidRunning } from '../process-identity.js';\nexport function undo(agent?: Agent): boolean { return pidRunning(agent ? 1 : 0); }\n",
        'src/agent/agent.ts':
          "import { Registry } from '../tools/registry.js';\nexport class Agent { tools = new Registry(); }\n",
        'src/tools/registry.ts': "import { ask } from '../permission/gate.js';\nexport class Registry { ask = ask; }\n",
        'src/permission/gate.ts':
          "import type { Settings } from '../config/schema.js';\nexport function ask(settings?: Settings): boolean { return settings === undefined; }\n",
        'src/config/schema.ts': 'export interface Settings { debug: boolean }\n',
        'src/process-identity.ts': 'export function pidRunning(pid: number): boolean { return pid > 0; }\n',
      }),
    ).toEqual([]);
  });
});
