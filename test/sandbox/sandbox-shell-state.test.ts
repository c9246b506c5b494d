/**
 * The bash tool's session state (directory and exported variables carried to the next command) under
 * the OS sandbox (Linux, bubblewrap), tried for real in a temp project with its own HOME: a sandboxed
 * command must not plant code that the next command, run at a looser level (outside the sandbox once
 * the person approves it), runs; must not make opencode write through a link it made; and must not make
 * opencode read a hidden file for it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings, type SandboxMode } from '../../src/sandbox/index.js';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner } from '../../src/tools/tool.js';

const support = await detectSandbox();
const CAN_RUN = support.backend === 'bubblewrap';
const SKIPPED = CAN_RUN ? '' : ` (skipped: the sandbox cannot start here: ${support.reason})`;

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

interface World {
  project: string;
  home: string;
  outside: string;
}

function makeWorld(): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-state-')));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const world = { project: join(root, 'project'), home: join(root, 'home'), outside: join(root, 'outside') };
  for (const dir of [world.project, world.home, world.outside, join(world.home, '.aws')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(world.home, '.aws', 'credentials'), 'LEAKED=aws-secret-123\n');
  execFileSync('git', ['init', '-q'], { cwd: world.project });
  return world;
}

function shellIn(world: World, mode: SandboxMode): ShellRunner {
  const sandbox = createSandbox({ settings: sandboxSettings(mode), projectDir: world.project, home: world.home });
  const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home } });
  cleanup.push(async () => {
    shell.close();
    await sandbox.close();
  });
  return shell;
}

const run = (shell: ShellRunner, command: string, level: 'strict' | 'network' | 'none' = 'strict') =>
  shell.exec(command, { timeoutMs: 20_000, sandbox: level });

describe.skipIf(!CAN_RUN)(`the shell's state between sandboxed commands${SKIPPED}`, () => {
  it('does not run code a strict command wrote into its saved state when the next command runs outside the sandbox', async () => {
    const world = makeWorld();
    const shell = shellIn(world, 'auto');
    const marker = join(world.outside, 'planted');
    // the command's own EXIT trap runs after the state was saved, and rewrites it
    const plant = `trap 'printf "%s\\n" "touch ${marker}" > "$__oc_state.env"; echo 0 > "$__oc_state.status"' EXIT`;
    expect(await run(shell, plant)).toMatchObject({ exitCode: 0, sandboxed: true });
    await run(shell, 'true', 'none');
    expect(existsSync(marker)).toBe(false);
  });

  it('gives a command outside the sandbox none of the code-running variables a strict command exported, and says so', async () => {
    const world = makeWorld();
    const marker = join(world.outside, 'bash-env-ran');
    writeFileSync(join(world.project, 'evil.sh'), `touch ${marker}\n`);
    const shell = shellIn(world, 'auto');
    await run(shell, `export BASH_ENV=${world.project}/evil.sh LD_PRELOAD=/nonexistent.so PLAIN=kept`);
    const outside = await run(shell, 'bash -c true; echo "[$LD_PRELOAD] [$PLAIN]"', 'none');
    expect(existsSync(marker)).toBe(false);
    expect(outside.stdout).toBe('[] [kept]\n');
    expect(outside.stderr).toBe(
      '(not passed on from a command run in a stricter sandbox, as they make programs run code: BASH_ENV, LD_PRELOAD)\n',
    );
    // the same variables at the same level stay (strict to strict)
    const strict = shellIn(world, 'auto');
    await run(strict, 'export LD_PRELOAD=/nonexistent.so');
    expect((await run(strict, 'echo "[$LD_PRELOAD]"')).stdout).toBe('[/nonexistent.so]\n');
  });

  it('passes on the variables that run code with "sandbox": "off" (the control: they do run)', async () => {
    const world = makeWorld();
    const marker = join(world.outside, 'bash-env-ran');
    writeFileSync(join(world.project, 'evil.sh'), `touch ${marker}\n`);
    const shell = shellIn(world, 'off');
    await run(shell, `export BASH_ENV=${world.project}/evil.sh`);
    expect((await run(shell, 'bash -c true', 'none')).stderr).toBe('');
    expect(existsSync(marker)).toBe(true);
  });

  it('never writes through a link a strict command made at the next state file names', async () => {
    const world = makeWorld();
    const victim = join(world.outside, 'victim');
    writeFileSync(victim, 'keep me\n');
    const shell = shellIn(world, 'auto');
    const plant =
      `D=$(dirname "$TMPDIR"); for i in 1 2 3 4 5; do for f in $i.in $i.env $i.cwd $i.status out-$i; do ln -s ${victim} "$D/$f"; done; done 2>/dev/null; ` +
      `for f in env cwd status; do ln -sf ${victim} "$__oc_state.$f"; done; export X=1`;
    await run(shell, plant);
    await run(shell, 'echo next', 'none');
    await run(shell, 'echo again');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });

  it('gives a command outside the sandbox a temp directory no sandboxed command could plant links in', async () => {
    const world = makeWorld();
    const victim = join(world.outside, 'victim');
    writeFileSync(victim, 'keep me\n');
    const shell = shellIn(world, 'auto');
    await run(shell, `ln -s ${victim} "$TMPDIR/build.log"`);
    const outside = await run(shell, 'echo overwritten > "$TMPDIR/build.log"; cat "$TMPDIR/build.log"', 'none');
    expect(outside.stdout).toBe('overwritten\n');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    // back in the sandbox, the sandbox's temp directory again, with what was left there
    expect((await run(shell, 'test -L "$TMPDIR/build.log" && echo link')).stdout).toBe('link\n');
  });

  it('does not read a hidden file a strict command linked at its state file', async () => {
    const world = makeWorld();
    const shell = shellIn(world, 'auto');
    await run(shell, `export BEFORE=1; trap 'ln -sf ${world.home}/.aws/credentials "$__oc_state.env"' EXIT`);
    const after = await run(shell, 'set | grep -c \'aws-secret-12[3]\'; echo "[$LEAKED]"', 'none');
    expect(after.stdout).toBe('0\n[]\n');
  });
});
