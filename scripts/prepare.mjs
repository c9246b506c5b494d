// npm's `prepare`: builds dist/ (scripts/build.mjs) and the TypeScript declarations of `opencode` and
// `opencode/plugin` (dist/types). npm runs it after `npm install` in the checkout, and once more when
// `npx opencode` (npm exec) first runs inside the checkout: npm exec installs the checkout into its
// own cache (~/.npm/_npx) as a link to this folder to find the `opencode` command, and runs the
// linked package's `prepare` there, in this same folder. That second build would only make again what
// `npm install` made (half a minute with no output before the first answer), so under npm exec it is
// skipped when dist/ is already built; a checkout without dist/ is built either way.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the build leaves: the command's loader and the package's declarations. */
const BUILT = ['dist/start.cjs', 'dist/types/api/index.d.ts', 'dist/types/plugin/api.d.ts'];

if (process.env.npm_command === 'exec' && BUILT.every((file) => existsSync(join(root, file)))) {
  process.exit(0);
}
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
run([join(root, 'scripts', 'build.mjs')]);
run([createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.types.json']);
