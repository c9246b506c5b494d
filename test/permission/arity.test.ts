/** The session scope of a command: its prefix by the arity table. */
import { describe, expect, it } from 'vitest';
import { COMMAND_ARITY, commandPrefix } from '../../src/permission/arity.js';
import { analyzeCommand, sessionScope } from '../../src/permission/shell-analysis.js';

const scopeOf = (command: string): string => {
  const [first] = analyzeCommand(command, { cwd: '/p', home: '/h' }).commands;
  return sessionScope(first!);
};

describe('arity table', () => {
  const examples = COMMAND_ARITY.map((entry) => {
    const [command, scope] = entry.example.split(' → ') as [string, string];
    return [command, scope.replace(/ \(.*$/, '')] as const;
  });

  it.each(examples)('%s → %s', (command, scope) => {
    expect(scopeOf(command)).toBe(scope);
  });

  it('lists each prefix once', () => {
    expect(new Set(COMMAND_ARITY.map((e) => e.prefix)).size).toBe(COMMAND_ARITY.length);
  });
});

describe('session scope', () => {
  it.each([
    ['ls -la src', 'ls *'],
    ['ls', 'ls *'],
    ['rm -rf build', 'rm *'],
    ['git checkout -b feat', 'git checkout *'],
    ['git -C sub status', 'git -C sub status *'],
    ['git --no-pager log -5', 'git --no-pager log *'],
    ['git "checkout" main', 'git "checkout" *'],
    ['npm run test -- -u', 'npm run test *'],
    ['npm --prefix web run build', 'npm --prefix web run build *'],
    ['python3.12 -m http.server', 'python3.12 -m http.server *'],
    ['cargo build --release', 'cargo build *'],
    ['make -j4 test', 'make -j4 test *'],
    ['make -C sub test', 'make -C sub test *'],
    // a command shorter than its arity grants only itself: `npm run *` would cover every script
    ['npm run', 'npm run'],
    ['git', 'git'],
    ['make', 'make'],
    // wrappers and env prefixes are not part of the scope, as they are not part of rule matching
    ['CI=true sudo npm run lint', 'npm run lint *'],
    ['timeout 60 go test ./...', 'go test *'],
  ])('%s → %s', (command, scope) => {
    expect(scopeOf(command)).toBe(scope);
  });

  it('counts words, not flags', () => {
    expect(commandPrefix(['git', '--no-pager', 'log', '-5'])).toEqual({
      words: ['git', '--no-pager', 'log'],
      complete: true,
    });
    expect(commandPrefix(['docker', 'compose', '-f', 'x.yml'])).toEqual({
      words: ['docker', 'compose', '-f', 'x.yml'],
      complete: false,
    });
    expect(commandPrefix([])).toEqual({ words: [], complete: false });
  });

  it('gives one scope per part of a compound command', () => {
    const analysis = analyzeCommand('git add -A && git commit -m x && npm run build', { cwd: '/p', home: '/h' });
    expect(analysis.commands.map(sessionScope)).toEqual(['git add *', 'git commit *', 'npm run build *']);
  });
});
