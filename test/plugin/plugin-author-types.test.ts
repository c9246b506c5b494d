/**
 * Plugin authors get types: `opencode/plugin` and `opencode` resolve, through package.json `exports`,
 * to the declarations `npm run build:types` writes.
 * A plugin project that imports them is type-checked with the real compiler: a correct plugin passes,
 * a wrong one fails with the error an author would see in the editor.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
let project: string;

beforeAll(() => {
  // the declarations as `npm install` (prepare) builds them, from the current source
  execFileSync(process.execPath, [tsc, '-p', join(repo, 'tsconfig.types.json')], { stdio: 'pipe' });
  project = mkdtempSync(join(tmpdir(), 'plugin-types-'));
  mkdirSync(join(project, 'node_modules'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  symlinkSync(repo, join(project, 'node_modules', 'opencode'), 'dir');
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
    }),
  );
}, 180_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

function typecheck(file: string, source: string): { ok: boolean; output: string } {
  writeFileSync(join(project, file), source);
  const run = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  rmSync(join(project, file));
  return { ok: run.status === 0, output: run.stdout + run.stderr };
}

describe('types for plugin authors', () => {
  it('type-checks the README example plugin (examples/custom-tools/.opencode/plugins/block-env.ts)', () => {
    copyFileSync(
      join(repo, 'examples', 'custom-tools', '.opencode', 'plugins', 'block-env.ts'),
      join(project, 'block-env.ts'),
    );
    const run = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    rmSync(join(project, 'block-env.ts'));
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it("infers a tool's arguments from its zod schema, and reports a wrong one", () => {
    const good = typecheck(
      'good.ts',
      `import { definePlugin, tool, z } from 'opencode/plugin';
export default definePlugin(async ({ directory }) => ({
  tools: {
    greet: tool({ description: 'Greets', args: z.object({ who: z.string() }), execute: async ({ who }, ctx) => \`hi \${who} from \${directory} in \${ctx.sessionId}\` }),
  },
}));
`,
    );
    expect(good.output).toBe('');
    expect(good.ok).toBe(true);

    const bad = typecheck(
      'bad.ts',
      `import { tool, z } from 'opencode/plugin';
export const t = tool({ description: 'd', args: z.object({ n: z.number() }), execute: async ({ n }) => n.toUpperCase() });
`,
    );
    expect(bad.ok).toBe(false);
    expect(bad.output).toContain("Property 'toUpperCase' does not exist on type 'number'");
  }, 120_000);

  it('types the runtime API (`import { createOpencode } from "opencode"`)', () => {
    const result = typecheck(
      'embed.ts',
      `import { createOpencode } from 'opencode';
const opencode = await createOpencode({ directory: '.' });
opencode.tools.register({ name: 'deploy_status', description: 'd', args: { type: 'object', properties: {} }, execute: async () => 'green' });
const answer = await opencode.run('s1', 'Is the deploy green?');
const text: string = answer.text;
await opencode.close();
export { text };
`,
    );
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 120_000);
});
