/**
 * `npm run bench [-- --quick] [-- --only startup,search,agent,rss,prompt,custom,tui,huge,lsp,snapshot,sandbox]`
 *
 * Builds dist/ (so bin/opencode runs the current source), then runs each benchmark and prints one
 * table. Figures are medians; ratios compare figures measured in this same run. Nothing passes or
 * fails: targets are printed beside the figures. `--quick` uses a 10,000-file search tree instead
 * of 100,000 and fewer repetitions. Progress goes to stderr, the table to stdout.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchAgentLoop } from './agent-loop.js';
import { benchCustomTools } from './custom-tools.js';
import { benchHugeReply } from './huge-reply.js';
import { benchLsp } from './lsp.js';
import { log, printTable, type Row } from './lib.js';
import { benchPromptSize } from './prompt-size.js';
import { benchRss } from './rss.js';
import { benchSandbox } from './sandbox.js';
import { benchSearch, benchSearchReal } from './search.js';
import { benchSnapshotUndo } from './snapshot-undo.js';
import { benchStats } from './stats.js';
import { benchStartup } from './startup.js';
import { realRepoTree, searchTree } from './tree.js';
import { benchTui } from './tui.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args[args.indexOf('--only') + 1];
const only = args.includes('--only') && onlyArg ? new Set(onlyArg.split(',')) : undefined;
const wanted = (name: string) => !only || only.has(name);

const started = Date.now();
const loadBefore = loadavg()[0]!;
log('building dist/ (scripts/build.mjs)');
execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });

const tree = wanted('search') || wanted('prompt') || wanted('agent') ? searchTree(quick ? 0.1 : 1) : undefined;
const rows: Row[] = [];
if (wanted('startup')) rows.push(...(await benchStartup({ runs: quick ? 7 : 15 })));
if (wanted('search')) rows.push(...(await benchSearch(tree!, { runs: quick ? 5 : 7 })));
if (wanted('search')) rows.push(...(await benchSearchReal(realRepoTree(process.cwd()), { runs: quick ? 5 : 9 })));
if (wanted('rss')) rows.push(...(await benchRss({ prompts: 30 })));
if (wanted('agent')) rows.push(...(await benchAgentLoop({ sessions: quick ? 3 : 7, bigProject: tree?.root })));
if (wanted('prompt')) rows.push(...benchPromptSize(tree?.root));
if (wanted('stats')) rows.push(...(await benchStats({ runs: quick ? 5 : 15 })));
if (wanted('custom')) rows.push(...(await benchCustomTools({ runs: quick ? 5 : 11 })));
if (wanted('huge')) rows.push(...(await benchHugeReply({ runs: quick ? 1 : 3 })));
if (wanted('lsp')) rows.push(...(await benchLsp({ runs: quick ? 5 : 15 })));
if (wanted('sandbox')) rows.push(...(await benchSandbox({ runs: quick ? 15 : 41 })));
if (wanted('snapshot')) {
  const real = realRepoTree(process.cwd());
  const here = Number(execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').length - 1);
  rows.push(
    ...(await benchSnapshotUndo({
      runs: quick ? 5 : 11,
      trees: [
        { label: 'this project', root: process.cwd(), files: here, writable: false },
        { label: 'the real tree', root: real.root, files: real.files, writable: true },
      ],
    })),
  );
}
if (wanted('tui'))
  rows.push(...(await benchTui({ runs: quick ? 3 : 5, presses: quick ? 20 : 50, tokens: quick ? 2000 : 5000 })));

const cpu = cpus();
process.stdout.write(
  `opencode bench — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ` +
    `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, ` +
    `${quick ? `--quick (${tree?.files ?? 0}-file tree)` : `${tree?.files ?? 0}-file tree`}, ` +
    `load average ${loadBefore.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end (other processes add noise: compare the min too)\n`,
);
printTable(rows);
process.stdout.write(`\n(total ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
