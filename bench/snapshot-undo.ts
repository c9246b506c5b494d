/**
 * What undo of `bash` costs: the project snapshots of `src/undo/snapshot.ts` on this
 * project and on the real tree (`realRepoTree`, node_modules as a 27,000-file repository). The first
 * snapshot hashes every file (once per project: the index persists). A later one runs two git walks
 * side by side, `git diff-files --name-only` (tracked files whose stat data changed, ctime included: the
 * index is git's stat cache, no file is read) and `git ls-files --others --exclude-standard` (new
 * files), lstat-s what they list, `git add`s it and runs `git write-tree`; with nothing listed and the
 * index as its last write-tree left it, the two walks are all and the last tree is reused. A tracked
 * call takes one before and one after, and diffs them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BashChangeTracker } from '../src/undo/bash-changes.js';
import { ProjectSnapshots } from '../src/undo/snapshot.js';
import { toolContext } from '../test/support/tool-context.js';
import { log, median, ms, ratio, stats, timeRuns, type Row } from './lib.js';

const S = 'undo of bash: project snapshots';

interface Tree {
  label: string;
  root: string;
  files: number;
  /** a file may be written into the tree (a temp copy, not someone's working tree) */
  writable: boolean;
}

export async function benchSnapshotUndo(options: { runs: number; trees: Tree[] }): Promise<Row[]> {
  const rows: Row[] = [];
  for (const tree of options.trees) {
    const dataDir = mkdtempSync(join(tmpdir(), 'opencode-bench-snapshots-'));
    try {
      const snapshots = new ProjectSnapshots({ cwd: tree.root, dataDir });
      const take = () => snapshots.take({ timeoutMs: 30 * 60_000 });
      log(`snapshot: first snapshot of ${tree.label} (${tree.files} files) …`);
      const t0 = performance.now();
      await take();
      const firstMs = performance.now() - t0;
      const size = execFileSync('du', ['-sk', dataDir], { encoding: 'utf8' }).split('\t')[0];
      const later = await timeRuns(options.runs, take);
      rows.push(
        {
          section: S,
          name: `first snapshot, ${tree.label}`,
          value: ms(firstMs),
          note: `${tree.files} files hashed into a new repository (${Math.round(Number(size) / 1024)} MB on disk); once per project, in the background at start`,
        },
        {
          section: S,
          name: `later snapshot, ${tree.label}, nothing changed`,
          value: stats(later),
          ratio: ratio(median(later), firstMs),
          note: 'diff-files (stat changes) and ls-files --others (new files) side by side; nothing to add, so no add or write-tree (the last tree reused); ratio to the first',
        },
      );
      if (tree.writable) {
        const tracker = new BashChangeTracker({ snapshots, cwd: tree.root, record: () => {} });
        await tracker.firstSnapshot();
        const probe = join(tree.root, 'opencode-bench-probe.txt');
        let n = 0;
        const ctx = toolContext(tree.root);
        const call = await timeRuns(options.runs, () =>
          tracker.around('bash', ctx, async () => {
            writeFileSync(probe, `run ${n++}\n`);
            return { output: '', isError: false };
          }),
        );
        rmSync(probe, { force: true });
        rows.push({
          section: S,
          name: `one tracked bash call, ${tree.label}`,
          value: stats(call),
          ratio: ratio(median(call), median(later)),
          target: '≤ 500 ms',
          note: 'before + after snapshot + diff-tree + cat-file, one file changed: what each bash call adds; ratio to one later snapshot',
        });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}
