/**
 * What each simple command found looks like (name, args, text, wrappers), how words are read
 * (quotes, escapes, `~`, `$'…'`), and the tables behind the analysis: every safe-table example is
 * read-only, every banned command is refused through wrappers.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BANNED_COMMANDS } from '../../src/permission/banned-commands.js';
import { SAFE_READ_ONLY_COMMANDS, isPrintOnlySedScript } from '../../src/permission/safe-commands.js';
import { analyzeCommand, type SimpleCommand } from '../../src/permission/shell-analysis.js';

const options = { cwd: '/work/project', home: '/home/dev' };
/** The commands found, without the per-command `readOnly` (tested on its own below). */
const commandsOf = (command: string): SimpleCommand[] =>
  analyzeCommand(command, options).commands.map(({ readOnly: _, ...rest }) => rest);

describe('simple commands: the real command, as written, without its wrappers', () => {
  it.each<[string, SimpleCommand[]]>([
    [
      'CI=true git commit -m x',
      [{ name: 'git', args: ['commit', '-m', 'x'], text: 'git commit -m x', wrappers: ['CI=true'] }],
    ],
    ['timeout 5 rm x', [{ name: 'rm', args: ['x'], text: 'rm x', wrappers: ['timeout'] }]],
    ['env -i FOO=1 rm x', [{ name: 'rm', args: ['x'], text: 'rm x', wrappers: ['env', 'FOO=1'] }]],
    [
      'sudo -u www-data nice -n 5 make build',
      [{ name: 'make', args: ['build'], text: 'make build', wrappers: ['sudo', 'nice'] }],
    ],
    ['A=1 B="x y" npm test', [{ name: 'npm', args: ['test'], text: 'npm test', wrappers: ['A=1', 'B="x y"'] }]],
    ['/usr/bin/git status', [{ name: 'git', args: ['status'], text: 'git status', wrappers: [] }]],
    ['./node_modules/.bin/tsc --noEmit', [{ name: 'tsc', args: ['--noEmit'], text: 'tsc --noEmit', wrappers: [] }]],
    [
      'git commit -m "fix the bug"',
      [{ name: 'git', args: ['commit', '-m', 'fix the bug'], text: 'git commit -m "fix the bug"', wrappers: [] }],
    ],
    ['git  log   --oneline', [{ name: 'git', args: ['log', '--oneline'], text: 'git log --oneline', wrappers: [] }]],
    [
      'echo "$HOME/x" \'$HOME\'',
      [{ name: 'echo', args: ['$HOME/x', '$HOME'], text: 'echo "$HOME/x" \'$HOME\'', wrappers: [] }],
    ],
    [
      'ls ~ ~/src "~" ~root',
      [{ name: 'ls', args: ['/home/dev', '/home/dev/src', '~', '~root'], text: 'ls ~ ~/src "~" ~root', wrappers: [] }],
    ],
    [
      "printf $'a\\tb\\x41\\u00e9'",
      [{ name: 'printf', args: ['a\tbAé'], text: "printf $'a\\tb\\x41\\u00e9'", wrappers: [] }],
    ],
    [
      'echo a\\ b \\* "q\\"x\\$y\\z"',
      [{ name: 'echo', args: ['a b', '*', 'q"x$y\\z'], text: 'echo a\\ b \\* "q\\"x\\$y\\z"', wrappers: [] }],
    ],
    ['echo héllo > "café.txt"', [{ name: 'echo', args: ['héllo'], text: 'echo héllo', wrappers: [] }]],
    ['bash -c "git status"', [{ name: 'git', args: ['status'], text: 'git status', wrappers: ['bash'] }]],
    ['sudo bash -c "rm x"', [{ name: 'rm', args: ['x'], text: 'rm x', wrappers: ['sudo', 'bash'] }]],
    ['eval git status', [{ name: 'git', args: ['status'], text: 'git status', wrappers: ['eval'] }]],
    ['time -p ls', [{ name: 'ls', args: [], text: 'ls', wrappers: ['time'] }]],
    [
      'find src -name "*.ts" -exec grep -l x {} +',
      [
        { name: 'find', args: ['src', '-name', '*.ts'], text: 'find src -name "*.ts"', wrappers: [] },
        { name: 'grep', args: ['-l', 'x', '{}'], text: 'grep -l x {}', wrappers: ['find'] },
      ],
    ],
    [
      'ls | xargs -0 -n1 rm -f',
      [
        { name: 'ls', args: [], text: 'ls', wrappers: [] },
        { name: 'rm', args: ['-f'], text: 'rm -f', wrappers: ['xargs'] },
      ],
    ],
    ['command -v git', [{ name: 'command', args: ['-v', 'git'], text: 'command -v git', wrappers: [] }]],
    [
      'export PATH="$PATH:/x" Y',
      [
        {
          name: 'export',
          args: ['PATH=$PATH:/x', 'Y'],
          text: 'export PATH="$PATH:/x" Y',
          wrappers: [],
          opaque: 'runs code the check cannot see: PATH=$PATH:/x (PATH makes programs run code)',
        },
      ],
    ],
  ])('%j', (command, expected) => {
    expect(commandsOf(command)).toEqual(expected);
  });

  it.each<[string, boolean[]]>([
    ['ls && rm x', [true, false]],
    ['echo x > f', [true]], // the write is the line's, not echo's
    ['sudo ls', [false]],
    ['PATH=/tmp/x ls', [false]],
    ['LANG=C ls', [true]],
    ['find . | xargs git branch', [true, false]],
    ['find . | xargs grep x', [true, true]],
    ['timeout 5 git status', [true]],
  ])('%j: each command alone is read-only: %j', (command, expected) => {
    expect(analyzeCommand(command, options).commands.map((c) => c.readOnly)).toEqual(expected);
  });

  it('names the command in the unanalysable reason', () => {
    expect(analyzeCommand("echo 'x", options).unanalysable).toMatch(
      /syntax error: 1:6: reached EOF without closing quote/,
    );
    expect(analyzeCommand('$CMD x', options).unanalysable).toBe('the command name $CMD is only known when it runs');
    expect(analyzeCommand('bash -c "ls \'"', options).unanalysable).toMatch(/^bash -c string: syntax error/);
  });

  it('names the banned command and why', () => {
    expect(analyzeCommand('ls && sudo /usr/bin/wget x', options).banned).toEqual({
      name: 'wget',
      reason: 'network access; use the fetch tool to read a web page',
    });
  });

  it('stops at nesting too deep to follow', () => {
    let command = 'rm x';
    for (let i = 0; i < 12; i++) command = `eval ${JSON.stringify(command)}`.replace(/\$/g, '\\$');
    expect(analyzeCommand(command, options).unanalysable).toMatch(/nested more than 8 levels deep/);
  });
});

describe('analysis is pure and total', () => {
  it('never throws, whatever it is given', () => {
    const inputs = [
      '((',
      '))',
      '`',
      '$((',
      '<<',
      'a <<',
      'case',
      'fi',
      ';;',
      '|',
      '&&&',
      '\\',
      '\'"\'"',
      '${',
      'x=(',
      'f() {',
      '[[ a',
      'cat <<EOF\nno end',
    ];
    for (const input of inputs) {
      expect(() => analyzeCommand(input, options), input).not.toThrow();
      expect(analyzeCommand(input, options).readOnly, input).toBe(false);
    }
  });

  it('follows a long chain of commands, and gives up on absurd nesting without throwing', () => {
    const chain = Array.from({ length: 1000 }, (_, i) => `echo ${i}`).join(' && ') + ' | rm x';
    const analysis = analyzeCommand(chain, options);
    expect(analysis.commands).toHaveLength(1001);
    expect(analysis.commands.at(-1)?.name).toBe('rm');
    const nested = '$('.repeat(3000) + 'ls' + ')'.repeat(3000);
    expect(analyzeCommand(nested, options).unanalysable).toMatch(/nested too deeply/);
  });

  it('drops NUL bytes as bash does, so they hide nothing', () => {
    expect(analyzeCommand('cu\0rl x', options).banned?.name).toBe('curl');
  });

  it('leaves the process as it found it (the parser runtime sets Error.stackTraceLimit and global.require when it loads)', () => {
    const limit = Error.stackTraceLimit;
    analyzeCommand('ls && bash -c "eval \'git status\'"', options);
    expect(Error.stackTraceLimit).toBe(limit);
    expect('require' in globalThis).toBe(false);
  });

  it('loads the parser on first use, not on import (`opencode --version` must not pay for it)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((k) => k.includes('mvdan-sh'));
      const { analyzeCommand } = await import('./src/permission/shell-analysis.ts');
      const before = loaded();
      analyzeCommand('ls', { cwd: '/', home: '/' });
      console.log(JSON.stringify({ before, after: loaded() }));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ before: false, after: true });
  });

  it('resolves paths against the cwd and home it is given, not the process', () => {
    const analysis = analyzeCommand('echo > a; echo > ~/b', { cwd: '/elsewhere', home: '/users/x' });
    expect(analysis.writes.map((w) => w.path)).toEqual(['/elsewhere/a', '/users/x/b']);
  });
});

describe('the safe table', () => {
  const forms = SAFE_READ_ONLY_COMMANDS.flatMap((entry) =>
    entry.example
      .replace(/ \(.*$/, '')
      .split(', ')
      .map((form) => [entry.command, form] as const),
  );

  it.each(forms)('%s: the example %j runs without asking', (_, form) => {
    const analysis = analyzeCommand(form, options);
    expect(analysis.unanalysable).toBeUndefined();
    expect(analysis.readOnly).toBe(true);
  });

  it('takes unknown arguments only for commands safe with any arguments', () => {
    expect(analyzeCommand('cat "$f"', options).readOnly).toBe(true);
    expect(analyzeCommand('git branch "$name"', options).readOnly).toBe(false);
    expect(analyzeCommand('sort "$f"', options).readOnly).toBe(false); // $f could be -o/etc/x
  });

  it.each([
    ['1,50p', true],
    ['/start/,/end/p', true],
    ['s/a/b/g', true],
    ['s|a|b|2', true],
    ['$d', true],
    ['10q', true],
    ['1!G;h;$!d', true],
    ['y/abc/xyz/', true],
    ['s/a/b/w out', false],
    ['s/a/b/e', false],
    ['w out', false],
    ['e rm -rf x', false],
    ['r /etc/passwd', false],
    ['1{p}', false],
    ['s/a;w x/b/', false],
  ])('sed script %j only prints: %s', (script, expected) => {
    expect(isPrintOnlySedScript(script)).toBe(expected);
  });
});

describe('the banned list', () => {
  it.each(BANNED_COMMANDS.map((c) => c.name))('%s is refused however it is wrapped', (name) => {
    for (const command of [
      `${name} x`,
      `sudo ${name} x`,
      `/usr/bin/${name} x`,
      `X=1 ${name} x`,
      `ls && ${name} x | sh`,
      `bash -c "${name} x"`,
      `echo $(${name} x)`,
    ]) {
      expect(analyzeCommand(command, options).banned?.name, command).toBe(name);
    }
  });

  it('does not ban a command that only mentions one', () => {
    for (const command of [
      'echo curl',
      'curlx',
      'git clone https://x',
      'grep wget notes.txt',
      "cat <<'E'\ncurl x\nE",
    ]) {
      expect(analyzeCommand(command, options).banned, command).toBeUndefined();
    }
  });
});
