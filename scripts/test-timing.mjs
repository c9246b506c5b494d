#!/usr/bin/env node
/**
 * Where the test suite's time goes: the slowest test files, the time summed per folder, and the wall time.
 *
 *   node scripts/test-timing.mjs                      runs `vitest run` (all files) with the JSON reporter, then reports
 *   node scripts/test-timing.mjs -- test/tui test/e2e   the same for some files or folders (arguments go to vitest)
 *   node scripts/test-timing.mjs --report run.json    reports on a JSON report written before (`vitest run --reporter=json --outputFile=run.json`)
 *   --top N                                           how many of the slowest files and tests to list (default 25)
 *
 * A file's time is from its start to its end in a worker (collection, hooks and tests); the folder sums
 * add those up, so with several workers they exceed the wall time. The report format is vitest's JSON
 * reporter's (Jest-compatible: `testResults[].startTime/endTime` in ms since the epoch, `assertionResults[].duration` in ms).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { report: undefined, top: 25, vitestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.vitestArgs.push(...argv.slice(i + 1));
      break;
    } else if (arg === '--report') options.report = argv[++i];
    else if (arg === '--top') options.top = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0].replace(/^[^]*?\/\*\*\n/, '').replace(/^ \* ?/gm, '') + '\n');
      process.exit(0);
    } else options.vitestArgs.push(arg);
  }
  if (options.report === '' || (argv.includes('--report') && options.report === undefined)) fail('--report needs the path of a JSON report');
  if (!Number.isInteger(options.top) || options.top < 1) fail('--top needs a whole number of 1 or more');
  return options;
}

function fail(message) {
  process.stderr.write(`test-timing: ${message}\n`);
  process.exit(2);
}

/** Runs vitest with the JSON reporter (and the default one, for progress on stderr); returns the report and the measured wall time. */
function runVitest(vitestArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'test-timing-'));
  const output = join(dir, 'report.json');
  const loadBefore = loadavg()[0];
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', `--outputFile.json=${output}`, '--reporter=dot', ...vitestArgs],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const wallMs = Date.now() - started;
  let report;
  try {
    report = JSON.parse(readFileSync(output, 'utf8'));
  } catch (err) {
    fail(`vitest wrote no report (exit ${result.status ?? result.signal}): ${err.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { report, wallMs, loadBefore, loadAfter: loadavg()[0], exitCode: result.status ?? 1 };
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function folderOf(file) {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
}

function table(rows) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col]).length)));
  return rows.map((row) => row.map((cell, col) => (col === 0 ? String(cell).padEnd(widths[col]) : String(cell).padStart(widths[col]))).join('  ')).join('\n');
}

function summarize(report, top) {
  const files = report.testResults.map((result) => ({
    file: relative(root, result.name),
    ms: Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0)),
    tests: result.assertionResults.length,
    failed: result.status === 'failed',
  }));
  const tests = report.testResults.flatMap((result) =>
    result.assertionResults.map((test) => ({ file: relative(root, result.name), title: test.fullName ?? test.title, ms: test.duration ?? 0 })),
  );
  const first = Math.min(...report.testResults.map((result) => result.startTime ?? Infinity), report.startTime ?? Infinity);
  const last = Math.max(...report.testResults.map((result) => result.endTime ?? 0));
  const lines = [];
  lines.push(`${files.length} files, ${report.numTotalTests} tests (${report.numFailedTests} failed), first file start to last file end ${seconds(last - first)}`);

  lines.push('', `Slowest ${Math.min(top, files.length)} files:`);
  const slowFiles = [...files].sort((a, b) => b.ms - a.ms).slice(0, top);
  lines.push(table([['file', 'time', 'tests'], ...slowFiles.map((f) => [f.file + (f.failed ? '  (failed)' : ''), seconds(f.ms), f.tests])]));

  const folders = new Map();
  for (const f of files) {
    const entry = folders.get(folderOf(f.file)) ?? { ms: 0, files: 0, tests: 0 };
    entry.ms += f.ms;
    entry.files += 1;
    entry.tests += f.tests;
    folders.set(folderOf(f.file), entry);
  }
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  lines.push('', 'Per folder (file times summed):');
  const folderRows = [...folders].sort((a, b) => b[1].ms - a[1].ms).map(([name, e]) => [name, seconds(e.ms), e.files, e.tests]);
  lines.push(table([['folder', 'time', 'files', 'tests'], ...folderRows, ['all', seconds(total), files.length, tests.length]]));

  lines.push('', `Slowest ${Math.min(top, tests.length)} tests:`);
  const slowTests = [...tests].sort((a, b) => b.ms - a.ms).slice(0, top);
  lines.push(table([['test', 'time'], ...slowTests.map((t) => [`${t.file} > ${t.title}`.slice(0, 150), seconds(t.ms)])]));
  return lines.join('\n');
}

const options = parseArgs(process.argv.slice(2));
if (options.report !== undefined) {
  let report;
  try {
    report = JSON.parse(readFileSync(options.report, 'utf8'));
  } catch (err) {
    fail(`could not read the JSON report ${options.report}: ${err.message}`);
  }
  process.stdout.write(summarize(report, options.top) + '\n');
} else {
  const run = runVitest(options.vitestArgs);
  process.stdout.write('\n' + summarize(run.report, options.top) + '\n');
  process.stdout.write(
    `\nWall time ${seconds(run.wallMs)} (build included) on ${availableParallelism()} cores; load average ${run.loadBefore.toFixed(2)} before, ${run.loadAfter.toFixed(2)} after\n`,
  );
  process.exitCode = run.exitCode;
}
