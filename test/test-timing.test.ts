import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'test-timing.mjs');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Prints a report of saved timings (the shape scripts/test-timing-reporter.mjs writes) with the script. */
function report(timing: unknown, ...args: string[]): string {
  dir = mkdtempSync(join(tmpdir(), 'test-timing-test-'));
  const path = join(dir, 'run.json');
  writeFileSync(path, JSON.stringify(timing));
  return execFileSync(process.execPath, [SCRIPT, '--report', path, ...args], { encoding: 'utf8' });
}

const test = (name: string, ms: number) => ({ name, ms, state: 'passed' });

describe('scripts/test-timing.mjs', () => {
  it('prints times under a second in ms and lists tests by their real duration', () => {
    const timing = {
      wallMs: 2950,
      files: [
        {
          file: 'test/tui/a.test.ts',
          project: 'unit',
          ms: 340.2,
          prepareMs: 5.6,
          importMs: 200.2,
          testsMs: 134.4,
          failed: false,
          tests: [test('fast', 0.44), test('slower', 12.3), test('slowest', 7.4)],
        },
        {
          file: 'test/db/b.test.ts',
          project: 'integration',
          ms: 2345,
          prepareMs: 4,
          importMs: 1000,
          testsMs: 1341,
          failed: true,
          tests: [{ name: 'one', ms: 1340.7, state: 'failed' }],
        },
      ],
    };
    expect(report(timing, '--top', '4')).toBe(
      [
        "2 files, 4 tests (1 failed); vitest's run took 3.0 s",
        '',
        'Slowest 2 files (start, import, setup and tests):',
        'file                           time  import  tests',
        'test/db/b.test.ts  (failed)   2.3 s   1.0 s      1',
        'test/tui/a.test.ts           340 ms  206 ms      3',
        '',
        'Per folder (file times summed):',
        'folder      time  import  files  tests',
        'test/db    2.3 s   1.0 s      1      1',
        'test/tui  340 ms  206 ms      1      3',
        'all        2.7 s   1.2 s      2      4',
        '',
        'Per project (file times summed):',
        'project        time  import  files  tests',
        'integration   2.3 s   1.0 s      1      1',
        'unit         340 ms  206 ms      1      3',
        'all           2.7 s   1.2 s      2      4',
        '',
        'Slowest 4 tests:',
        'test                            time',
        'test/db/b.test.ts > one        1.3 s',
        'test/tui/a.test.ts > slower    12 ms',
        'test/tui/a.test.ts > slowest  7.4 ms',
        'test/tui/a.test.ts > fast     0.4 ms',
        '',
      ].join('\n'),
    );
  });

  it("reads vitest's JSON report, whose file times leave out the start and import", () => {
    const vitestReport = {
      testResults: [
        {
          name: join(import.meta.dirname, 'a.test.ts'),
          startTime: 1000,
          endTime: 1178,
          status: 'passed',
          assertionResults: [
            { fullName: 'a one', duration: 13.2, status: 'passed' },
            { fullName: 'a two', duration: 0.7, status: 'skipped' },
          ],
        },
      ],
    };
    expect(report(vitestReport)).toBe(
      [
        "1 file, 2 tests (0 failed); vitest's run took 178 ms",
        '',
        "Slowest 1 file (first test's start to last test's end):",
        'file              time  import  tests',
        'test/a.test.ts  178 ms       -      2',
        '',
        'Per folder (file times summed):',
        'folder    time  import  files  tests',
        'test    178 ms       -      1      2',
        'all     178 ms       -      1      2',
        '',
        'Slowest 2 tests:',
        'test                      time',
        'test/a.test.ts > a one   13 ms',
        'test/a.test.ts > a two  0.7 ms',
        '',
      ].join('\n'),
    );
  });

  it('says "file" and "test" for one of each', () => {
    const timing = {
      wallMs: 500,
      files: [
        {
          file: 'test/a.test.ts',
          project: '',
          ms: 120,
          prepareMs: 0,
          importMs: 100,
          testsMs: 20,
          failed: false,
          tests: [test('only', 0.04)],
        },
      ],
    };
    expect(report(timing)).toBe(
      [
        "1 file, 1 test (0 failed); vitest's run took 500 ms",
        '',
        'Slowest 1 file (start, import, setup and tests):',
        'file              time  import  tests',
        'test/a.test.ts  120 ms  100 ms      1',
        '',
        'Per folder (file times summed):',
        'folder    time  import  files  tests',
        'test    120 ms  100 ms      1      1',
        'all     120 ms  100 ms      1      1',
        '',
        'Slowest 1 test:',
        'test                     time',
        'test/a.test.ts > only  0.0 ms',
        '',
      ].join('\n'),
    );
  });
});
