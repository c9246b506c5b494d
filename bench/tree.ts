/**
 * The search tree, generated once and cached under os.tmpdir():
 * `packages/pkgNN/dirD/` (80 packages × 10 dirs) holding 75 `.ts` + 25 `.md` files each = 80,000
 * visible files; each package also has 125 files in `node_modules/` and 125 in `dist/`, both in
 * `.gitignore` = 20,000 ignored files; `git init`-ed. The needle is in every 97th visible file
 * (825 of 80,000) and in some ignored files (which must not be found). Files are small (< 1 KB);
 * on disk that is ~4 KB a file, ~400 MB in all.
 * `scale` 0.1 gives the 10,000-file tree of `--quick` (8 packages).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { log } from './lib.js';

/** Bump when the tree's shape changes, so a stale cached tree is not reused. */
const TREE_VERSION = 'v1';
export const NEEDLE = 'needleToken42';
const DIRS = 10;
const TS_PER_DIR = 75;
const MD_PER_DIR = 25;
const IGNORED_PER_FOLDER = 125;
const NEEDLE_EVERY = 97;

export interface Tree {
  root: string;
  files: number;
  visible: number;
  visibleTs: number;
  /** visible files holding the needle */
  needleFiles: number;
}

export function searchTree(scale: 1 | 0.1): Tree {
  const packages = Math.round(80 * scale);
  const visible = packages * DIRS * (TS_PER_DIR + MD_PER_DIR);
  const tree: Tree = {
    root: join(tmpdir(), `opencode-bench-tree-${TREE_VERSION}-${packages}pkg`),
    files: visible + packages * 2 * IGNORED_PER_FOLDER,
    visible,
    visibleTs: packages * DIRS * TS_PER_DIR,
    needleFiles: Math.ceil(visible / NEEDLE_EVERY),
  };
  const marker = join(tree.root, '.git', 'bench-tree-complete');
  if (existsSync(marker)) {
    log(`search tree: reusing ${tree.root} (${tree.files} files)`);
    return tree;
  }
  log(`search tree: generating ${tree.files} files in ${tree.root} (once) …`);
  const t0 = performance.now();
  rmSync(tree.root, { recursive: true, force: true });
  mkdirSync(tree.root, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: tree.root });
  writeFileSync(join(tree.root, '.gitignore'), 'node_modules/\ndist/\n');
  writeFileSync(join(tree.root, 'package.json'), '{ "name": "bench-monorepo", "private": true }\n');
  // package.json and .gitignore are visible too; they never hold the needle, so counts stay exact
  let n = 0; // index of the visible source file, for needle placement
  for (let p = 0; p < packages; p++) {
    const pkg = join(tree.root, 'packages', `pkg${String(p).padStart(2, '0')}`);
    for (let d = 0; d < DIRS; d++) {
      const dir = join(pkg, `dir${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < TS_PER_DIR + MD_PER_DIR; f++, n++) {
        const needle = n % NEEDLE_EVERY === 0;
        if (f < TS_PER_DIR) writeFileSync(join(dir, `file${f}.ts`), tsFile(p, d, f, needle));
        else writeFileSync(join(dir, `notes${f}.md`), mdFile(p, d, f, needle));
      }
    }
    for (const ignored of ['node_modules/dep', 'dist']) {
      const dir = join(pkg, ignored);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < IGNORED_PER_FOLDER; f++)
        writeFileSync(join(dir, `out${f}.ts`), tsFile(p, 99, f, f % 10 === 0));
    }
  }
  writeFileSync(marker, `${TREE_VERSION}\n`);
  log(`search tree: generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return tree;
}

function tsFile(p: number, d: number, f: number, needle: boolean): string {
  return `/** Module ${f} of package ${p}, folder ${d}. */
import { helper${(f + 1) % TS_PER_DIR} } from './file${(f + 1) % TS_PER_DIR}.js';

export interface Options${f} {
  name: string;
  retries: number;
  verbose?: boolean;
}

export function helper${f}(input: number, options: Options${f}): number {
  // ${needle ? `uses ${NEEDLE} here` : 'plain arithmetic'}
  let total = input * ${f + 1};
  for (let i = 0; i < options.retries; i++) total += helper${(f + 1) % TS_PER_DIR}(i, options);
  if (options.verbose) console.log(options.name, total);
  return total % ${p * 10 + d + 7};
}
`;
}

function mdFile(p: number, d: number, f: number, needle: boolean): string {
  return `# Notes ${f} (package ${p}, folder ${d})

This folder holds the helpers of package ${p}. Each helper multiplies its input and folds the
result; see \`file${f % TS_PER_DIR}.ts\` for the code.

- retries: how many times to repeat
- verbose: log each total
${needle ? `\nSee also ${NEEDLE}.\n` : ''}`;
}

/** Bump when the real-repository copy's recipe changes. */
const REAL_REPO_VERSION = 'v1';
/** A word found in a few dozen files of the copied packages (the grep case of the real tree). */
export const REAL_REPO_NEEDLE = 'createServer';

export interface RealRepo {
  root: string;
  /** files on disk, outside .git */
  files: number;
}

/**
 * A real source tree for the search benchmark, offline and deterministic for a given install: this
 * project's `node_modules/` (~27,000 files of real packages: JavaScript, TypeScript declarations,
 * JSON, Markdown, binaries, nested `node_modules/`, `.bin` symbolic links) copied as `packages/`
 * into a `git init`-ed folder with a `.gitignore` (`*.map`, `*.tsbuildinfo`, `.cache/`). It is not
 * a checkout of one repository (none of 20,000+ files is on disk here), but its shape — file sizes,
 * depth, names, ignore rules — is real rather than generated. Built once under os.tmpdir().
 */
export function realRepoTree(projectRoot: string): RealRepo {
  const root = join(tmpdir(), `opencode-bench-realrepo-${REAL_REPO_VERSION}`);
  const marker = join(root, '.git', 'bench-tree-complete');
  const count = () =>
    Number(
      execFileSync('sh', ['-c', 'find . -path ./.git -prune -o -type f -print | wc -l'], {
        cwd: root,
        encoding: 'utf8',
      }).trim(),
    );
  if (existsSync(marker)) {
    log(`real repository: reusing ${root}`);
    return { root, files: count() };
  }
  log(`real repository: copying node_modules into ${root} (once) …`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('cp', ['-R', join(projectRoot, 'node_modules'), join(root, 'packages')]);
  execFileSync('git', ['init', '-q'], { cwd: root });
  writeFileSync(join(root, '.gitignore'), '*.map\n*.tsbuildinfo\n.cache/\n');
  writeFileSync(marker, `${REAL_REPO_VERSION}\n`);
  return { root, files: count() };
}
