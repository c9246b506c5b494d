#!/usr/bin/env node
/**
 * Where the test suite's time goes. It prints, in this order: the number of files and tests and
 * vitest's own run time; the slowest files (time, import time, number of tests); the file times
 * summed per folder of test/ and per vitest project; the slowest tests; and, after a run, the wall
 * time with the load average. Lists run slowest first; a time is in seconds from 1 s up, in ms below.
 * A vitest JSON report does not time a file's start and import: its import column is `-`.
 *
 *   node scripts/test-timing.mjs                        runs `vitest run` (every file), then reports
 *   node scripts/test-timing.mjs -- test/tui test/e2e   the same for some files or folders (arguments after -- go to vitest)
 *   node scripts/test-timing.mjs --save run.json        also keeps the timings, to report on again later
 *   node scripts/test-timing.mjs --report run.json      reports on saved timings, or on vitest's own JSON report
 *                                                       (`vitest run --reporter=json --outputFile=run.json`)
 *   --top N                                             how many of the slowest files and tests to list (default 25)
 *
 * A file's time runs from its worker's start through importing it (and all it imports) to its last
 * test's end (scripts/test-timing-reporter.mjs); from vitest's JSON report it is only first test's
 * start to last test's end. Folder and project sums add file times, so with several workers they
 * exceed the wall time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { report: undefined, save: undefined, top: 25, vitestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.vitestArgs.push(...argv.slice(i + 1));
      break;
    } else if (arg === '--report') options.report = argv[++i];
    else if (arg === '--save') options.save = argv[++i];
    else if (arg === '--top') options.top = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('*/')[0]
          .replace(/^[^]*?\/\*\*\n/, '')
          .replace(/^ \* ?/gm, '') + '\n',
      );
      process.exit(0);
    } else options.vitestArgs.push(arg);
  }
  if (argv.includes('--report') && !options.report)
    fail('--report needs the path of a saved timing or a vitest JSON report');
  if (argv.includes('--save') && !options.save) fail('--save needs a path to write the timings to');
  if (!Number.isInteger(options.top) || options.top < 1) fail('--top needs a whole number of 1 or more');
  return options;
}

function fail(message) {
  process.stderr.write(`test-timing: ${message}\n`);
  process.exit(2);
}

/** Runs vitest with the timing reporter (and the dot reporter, for progress); returns the timings and the measured wall time. */
function runVitest(vitestArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'test-timing-'));
  const output = join(dir, 'timing.json');
  const loadBefore = loadavg()[0];
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=dot',
      `--reporter=${join(root, 'scripts', 'test-timing-reporter.mjs')}`,
      ...vitestArgs,
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, TEST_TIMING_OUTPUT: output } },
  );
  const wallMs = Date.now() - started;
  let timing;
  try {
    timing = JSON.parse(readFileSync(output, 'utf8'));
  } catch (err) {
    fail(`vitest wrote no timings (exit ${result.status ?? result.signal}): ${err.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { timing, wallMs, loadBefore, loadAfter: loadavg()[0], exitCode: result.status ?? 1 };
}

/** The timings of a vitest JSON report (Jest's format), in the timing reporter's shape. */
function fromVitestJson(report) {
  const files = report.testResults.map((result) => {
    const ms = Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0));
    return {
      file: relative(root, result.name),
      project: '',
      ms,
      // vitest's JSON report does not time the start and import of a file
      prepareMs: null,
      importMs: null,
      testsMs: ms,
      failed: result.status === 'failed',
      tests: result.assertionResults.map((test) => ({
        name: test.fullName ?? test.title,
        ms: test.duration ?? 0,
        state: test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped',
      })),
    };
  });
  const first = Math.min(...report.testResults.map((result) => result.startTime ?? Infinity));
  const last = Math.max(...report.testResults.map((result) => result.endTime ?? 0));
  return { wallMs: last - first, files };
}

/** A duration for people: seconds from 1 s up, whole ms from 10 ms, else ms to a tenth (`2.3 s`, `340 ms`, `0.4 ms`). */
function duration(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/** A file's start and import time in ms, or null when the timings do not have it (vitest's JSON report). */
function importOf(file) {
  return file.prepareMs == null || file.importMs == null ? null : file.prepareMs + file.importMs;
}

/** The sum of the files' start and import times, or `-` when the timings do not have them. */
function importSum(files) {
  const times = files.map(importOf);
  return times.includes(null) ? '-' : duration(times.reduce((sum, ms) => sum + ms, 0));
}

/** `1 file`, `2 files`. */
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function folderOf(file) {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
}

function table(rows) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col]).length)));
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? String(cell).padEnd(widths[col]) : String(cell).padStart(widths[col])))
        .join('  '),
    )
    .join('\n');
}

function sums(files, keyOf) {
  const groups = new Map();
  for (const f of files) {
    const entry = groups.get(keyOf(f)) ?? { ms: 0, members: [], files: 0, tests: 0 };
    entry.ms += f.ms;
    entry.members.push(f);
    entry.files += 1;
    entry.tests += f.tests.length;
    groups.set(keyOf(f), entry);
  }
  return [...groups]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([name, e]) => [name || '(none)', duration(e.ms), importSum(e.members), e.files, e.tests]);
}

function summarize(timing, top) {
  const { files } = timing;
  const tests = files.flatMap((f) => f.tests.map((test) => ({ ...test, file: f.file })));
  const failed = tests.filter((test) => test.state === 'failed').length;
  const lines = [
    `${count(files.length, 'file')}, ${count(tests.length, 'test')} (${failed} failed); vitest's run took ${duration(timing.wallMs)}`,
  ];

  const timed = files.some((f) => importOf(f) !== null)
    ? 'start, import, setup and tests'
    : "first test's start to last test's end";
  lines.push('', `Slowest ${count(Math.min(top, files.length), 'file')} (${timed}):`);
  const slowFiles = [...files].sort((a, b) => b.ms - a.ms).slice(0, top);
  lines.push(
    table([
      ['file', 'time', 'import', 'tests'],
      ...slowFiles.map((f) => [
        f.file + (f.failed ? '  (failed)' : ''),
        duration(f.ms),
        importOf(f) === null ? '-' : duration(importOf(f)),
        f.tests.length,
      ]),
    ]),
  );

  const total = [
    'all',
    duration(files.reduce((sum, f) => sum + f.ms, 0)),
    importSum(files),
    files.length,
    tests.length,
  ];
  lines.push('', 'Per folder (file times summed):');
  lines.push(table([['folder', 'time', 'import', 'files', 'tests'], ...sums(files, (f) => folderOf(f.file)), total]));
  if (files.some((f) => f.project)) {
    lines.push('', 'Per project (file times summed):');
    lines.push(table([['project', 'time', 'import', 'files', 'tests'], ...sums(files, (f) => f.project), total]));
  }

  lines.push('', `Slowest ${count(Math.min(top, tests.length), 'test')}:`);
  const slowTests = [...tests].sort((a, b) => b.ms - a.ms).slice(0, top);
  lines.push(
    table([['test', 'time'], ...slowTests.map((t) => [`${t.file} > ${t.name}`.slice(0, 150), duration(t.ms)])]),
  );
  return lines.join('\n');
}

const options = parseArgs(process.argv.slice(2));
if (options.report !== undefined) {
  let saved;
  try {
    saved = JSON.parse(readFileSync(options.report, 'utf8'));
  } catch (err) {
    fail(`could not read ${options.report}: ${err.message}`);
  }
  const timing = Array.isArray(saved.testResults) ? fromVitestJson(saved) : saved;
  if (!Array.isArray(timing.files)) fail(`${options.report} holds neither saved timings nor a vitest JSON report`);
  process.stdout.write(summarize(timing, options.top) + '\n');
} else {
  const run = runVitest(options.vitestArgs);
  if (options.save) writeFileSync(options.save, JSON.stringify(run.timing));
  process.stdout.write('\n' + summarize(run.timing, options.top) + '\n');
  process.stdout.write(
    `\nWall time ${duration(run.wallMs)} (build included) on ${count(availableParallelism(), 'core')}; load average ${run.loadBefore.toFixed(2)} before, ${run.loadAfter.toFixed(2)} after\n`,
  );
  process.exitCode = run.exitCode;
}
