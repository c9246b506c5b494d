/**
 * The pieces behind "what a shell command writes": every row of the write-target table
 * does what its example says, long options resolve as getopt_long resolves them, and sed scripts are
 * read for the files they write and the commands they run.
 */
import { describe, expect, it } from 'vitest';
import { resolveLongOption } from '../../src/permission/getopt.js';
import { readSedScript } from '../../src/permission/sed-script.js';
import { analyzeCommand } from '../../src/permission/shell-analysis.js';
import { HOME_WRITERS } from '../../src/permission/package-writes.js';
import { WRITE_TARGETS } from '../../src/permission/write-targets.js';

const options = { cwd: '/work/project', home: '/home/dev' };

describe('the write-target table', () => {
  // the first example of each row, without its note: `cp a b, cp -t /dest a` → `cp a b`
  const examples = Object.entries(WRITE_TARGETS).map(
    ([name, row]) => [name, row.example.split(', ')[0]!.replace(/ \(.*$/, '')] as const,
  );

  it.each(examples)('%s: %j writes something, or runs code', (name, example) => {
    const analysis = analyzeCommand(example, options);
    expect(analysis.commands.map((c) => c.name)[0]).toBe(name);
    expect(analysis.writes.length > 0 || analysis.commands.some((c) => c.opaque)).toBe(true);
  });

  it.each<[string, [string, string | undefined][]]>([
    ['cp a b', [['b', '/work/project/b']]],
    ['cp -t /dest a b', [['/dest', '/dest']]],
    ['cp --target=/dest a', [['/dest', '/dest']]],
    ['cp -vt/dest a', [['/dest', '/dest']]],
    ['cp --sparse always a /x/b', [['/x/b', '/x/b']]],
    [
      'install -d a b',
      [
        ['a', '/work/project/a'],
        ['b', '/work/project/b'],
      ],
    ],
    ['chmod -x run.sh', [['run.sh', '/work/project/run.sh']]],
    ['chown --reference=ref a', [['a', '/work/project/a']]],
    ['tee -a log -', [['log', '/work/project/log']]],
    ['tar xzf a.tgz', [['.', '/work/project']]],
    ['tar -tf /x/a.tar', []],
    ['tar -cf /x/a.tar -C src .', [['/x/a.tar', '/x/a.tar']]],
    ['unzip -l a.zip', []],
    ['gzip -c /x/log', []],
    ['mktemp -u', []],
    ['mktemp -p /x a.XXX', [['a.XXX', '/x/a.XXX']]],
    ['mktemp ./a.XXX', [['./a.XXX', '/work/project/a.XXX']]],
    ['split big', [['x', '/work/project/x']]],
    ['git config user.name x', [['.git/config', '/work/project/.git/config']]],
    ['git config --worktree core.x y', [['.git/config.worktree', '/work/project/.git/config.worktree']]],
    ['git remote add origin https://example.com/r.git', [['.git/config', '/work/project/.git/config']]],
    ['git remote -v', []],
    ['git branch -u origin/main', [['.git/config', '/work/project/.git/config']]],
    ['git branch -D old', []],
    ['git push -u origin main', [['.git/config', '/work/project/.git/config']]],
    ['git push origin main', []],
    ['git config --global --unset x', [['/home/dev/.gitconfig', '/home/dev/.gitconfig']]],
    ['git clone https://example.com/r.git', [['r', '/work/project/r']]],
    ['git init', [['.', '/work/project']]],
    ['git format-patch --stdout HEAD~1', []],
    ['npm config set x y --location=project', []],
    ['npm install -g x', [["(npm's global package folder)", undefined]]],
    ['pip install --pre x', []],
    ['sqlite3 -safe db.sqlite', [['db.sqlite', '/work/project/db.sqlite']]],
  ])('%j writes %j', (command, expected) => {
    const writes = analyzeCommand(command, options).writes.map((w) => [w.target, w.path]);
    expect(writes).toEqual(expected);
  });
});

describe('long options as getopt_long reads them', () => {
  const sed = ['quiet', 'silent', 'in-place', 'expression', 'file', 'separate', 'sandbox'];
  it.each<[string, string | undefined]>([
    ['--in-place', 'in-place'],
    ['--in-pl', 'in-place'],
    ['--i', 'in-place'],
    ['--s', 'ambiguous'], // silent, separate, sandbox
    ['--sa', 'sandbox'],
    ['--x', undefined],
    ['--', undefined],
  ])('%s → %s', (written, expected) => {
    expect(resolveLongOption(written, sed)).toBe(expected);
  });
});

describe('sed scripts', () => {
  it.each<[string, { writes: string[]; reads?: string[]; executes?: boolean; valid?: boolean }]>([
    ['s/a/b/g', { writes: [] }],
    ['s/a/b/w out', { writes: ['out'] }],
    ['s/a/b/gpw out; p', { writes: ['out; p'] }], // the file name runs to the end of the line
    ['1,5w /tmp/x\np', { writes: ['/tmp/x'] }],
    ['/x/W log', { writes: ['log'] }],
    ['$!{w a\n}', { writes: ['a'] }],
    ['s|/|w x|', { writes: [] }], // w inside the replacement is text
    ['s/[/]/w/', { writes: [] }], // a / in a bracket expression does not end the pattern
    ['y/abc/xyz/', { writes: [] }],
    ['a\\\nw not-a-file', { writes: [] }], // appended text
    ['i hello w world', { writes: [] }],
    ['r /etc/passwd', { writes: [], reads: ['/etc/passwd'] }],
    ['e rm -rf x', { writes: [], executes: true }],
    ['s/a/b/e', { writes: [], executes: true }],
    [':a;N;$!ba;s/\\n/ /g', { writes: [] }],
    ['1~2d;10q', { writes: [] }],
    ['s/a/b', { writes: [], valid: false }],
    ['k', { writes: [], valid: false }],
  ])('%j', (script, expected) => {
    const effects = readSedScript(script);
    expect(effects).toEqual({
      valid: expected.valid ?? true,
      writes: expected.writes,
      reads: expected.reads ?? [],
      executes: expected.executes ?? false,
    });
  });
});

describe("commands that write into the person's folders without naming them", () => {
  it.each(HOME_WRITERS.map((row) => [row.command, row.example, row.place] as const))(
    '%s: %j writes %s',
    (_, example, place) => {
      const writes = analyzeCommand(example, options).writes;
      expect(writes.some((w) => w.path === undefined && w.target.startsWith(place))).toBe(true);
    },
  );
});
