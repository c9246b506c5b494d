/**
 * The build's patch of signal-exit 3 (scripts/signal-exit-patch.mjs): node:assert is no
 * longer loaded with the module, and its exit hook still checks its argument: a callback that is not
 * a function throws the AssertionError the original throws. Each copy the build patches (Ink's and
 * restore-cursor's) is written to a temp folder as it is and patched, beside its `signals.js`, and
 * run in a fresh Node process: which built-in modules a process has loaded is its own
 * (`process.moduleLoadList`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { SIGNAL_EXIT_3, SIGNAL_EXIT_PATCHES } from '../../scripts/signal-exit-patch.mjs';

interface Patch {
  from: string;
  to: string;
}
/** What the child process reports (see {@link probe}). */
interface Probe {
  assertLoaded: { atLoad: boolean; afterHook: boolean; afterBadHook: boolean };
  removeIsFunction: boolean;
  error: {
    name: string;
    code: string;
    message: string;
    actual: unknown;
    expected: unknown;
    operator: string;
    isAssertionError: boolean;
  } | null;
}

/** The signal-exit a package's entry file resolves (its `import signalExit from 'signal-exit'`). */
const signalExitOf = (pkg: string) => createRequire(createRequire(import.meta.url).resolve(pkg)).resolve('signal-exit');
const copies = { ink: signalExitOf('ink'), 'restore-cursor': signalExitOf('restore-cursor') };
let dir: string;

/** Writes `source` as `<name>/index.js` beside the copy's signals.js; returns the file. */
function install(name: string, original: string, patches: Patch[]): string {
  let source = readFileSync(original, 'utf8');
  for (const patch of patches) {
    expect(source.split(patch.from).length - 1, `patch text not found once in ${original}: ${patch.from}`).toBe(1);
    source = source.replace(patch.from, patch.to);
  }
  const folder = join(dir, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'index.js'), source);
  copyFileSync(join(dirname(original), 'signals.js'), join(folder, 'signals.js'));
  return join(folder, 'index.js');
}

/**
 * Loads the module in a fresh Node, hooks a function in, then calls the hook with a non-function
 * (`'not a callback'`), noting after each step whether node:assert is loaded.
 */
function probe(file: string): Probe {
  const script = `
    const loaded = () => process.moduleLoadList.includes('NativeModule assert');
    const onExit = require(${JSON.stringify(file)});
    const atLoad = loaded();
    const remove = onExit(() => {});
    const afterHook = loaded();
    let error = null;
    try {
      onExit('not a callback');
    } catch (e) {
      error = { name: e.name, code: e.code, message: e.message, actual: e.actual, expected: e.expected, operator: e.operator,
        isAssertionError: e instanceof require('node:assert').AssertionError };
    }
    const afterBadHook = loaded();
    remove();
    process.stdout.write(JSON.stringify({ assertLoaded: { atLoad, afterHook, afterBadHook }, removeIsFunction: typeof remove === 'function', error }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Probe;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-signal-exit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(Object.entries(copies))(
  "signal-exit 3 (%s's copy) with node:assert loaded only for a bad callback",
  (name, file) => {
    it('is a copy the build patches (its filter matches the file the package loads)', () => {
      expect(SIGNAL_EXIT_3.test(file)).toBe(true);
      expect(
        (JSON.parse(readFileSync(join(dirname(file), 'package.json'), 'utf8')) as { version: string }).version,
      ).toMatch(/^3\./);
    });

    it('loads node:assert neither with the module nor for a function; a non-function throws the AssertionError the original throws', () => {
      const original = probe(install(`${name}-original`, file, []));
      const patched = probe(install(`${name}-patched`, file, SIGNAL_EXIT_PATCHES as Patch[]));

      const expectedError = {
        name: 'AssertionError',
        code: 'ERR_ASSERTION',
        message: 'a callback must be provided for exit handler',
        actual: 'string',
        expected: 'function',
        operator: '==',
        isAssertionError: true,
      };
      expect(original).toEqual({
        assertLoaded: { atLoad: true, afterHook: true, afterBadHook: true },
        removeIsFunction: true,
        error: expectedError,
      });
      expect(patched).toEqual({
        assertLoaded: { atLoad: false, afterHook: false, afterBadHook: true },
        removeIsFunction: true,
        error: expectedError,
      });
    });
  },
);
