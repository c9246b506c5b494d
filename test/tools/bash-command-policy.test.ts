import { describe, expect, it } from 'vitest';
import { findBannedCommand } from '../../src/tools/banned-commands.js';
import { isSafeReadOnlyCommand } from '../../src/tools/safe-commands.js';

describe('safe read-only commands (run without asking)', () => {
  it.each([
    'ls',
    'ls -la src',
    'LS -la',
    'pwd',
    'echo hello',
    'git status',
    'git  log --oneline -5',
    'git diff HEAD~1',
    'git branch -a',
    'git branch',
    'git tag -l',
    'git remote -v',
    'git config --get user.name',
    'git config --get-regexp ^alias',
    'go version',
    'go env GOPATH',
    'env',
    'printenv PATH',
  ])('%s is safe', (command) => {
    expect(isSafeReadOnlyCommand(command)).toBe(true);
  });

  it.each([
    ['ls && rm -rf ~', 'a chained command (safe in the original)'],
    ['ls; rm x', 'a sequence'],
    ['ls & rm x', 'a background job'],
    ['ls || rm x', 'an or-list'],
    ['ls | sh', 'a pipe'],
    ['echo x > ~/.bashrc', 'a redirection (safe in the original)'],
    ['echo x >> f', 'an appending redirection'],
    ['cat < /etc/passwd', 'an input redirection'],
    ['echo `rm x`', 'a backtick substitution'],
    ['echo $(rm x)', 'a command substitution'],
    ['ls\nrm x', 'a second line'],
    ['ls-evil', 'a different command that starts like ls (safe in the original)'],
    ['git branch -D main', 'deleting a branch (safe in the original)'],
    ['git branch new-feature', 'creating a branch'],
    ['git tag -d v1', 'deleting a tag'],
    ['git remote set-url origin x', 'changing a remote (safe in the original)'],
    ['git diff --output=/tmp/x', 'writing a file'],
    ['go env -w GOFLAGS=x', 'writing go config'],
    ['env rm -rf x', 'env running a command (safe in the original)'],
    ['timeout 5 rm x', 'timeout running a command (safe in the original)'],
    ['kill 1', 'stopping processes (safe in the original)'],
    ['go test ./...', 'running project code (safe in the original)'],
    ['rm -rf x', 'an ordinary command'],
    ['', 'nothing'],
  ])('%j asks: %s', (command) => {
    expect(isSafeReadOnlyCommand(command)).toBe(false);
  });
});

describe('banned commands', () => {
  it.each([
    ['curl https://x', 'curl'],
    ['  WGET http://x', 'wget'],
    ['/usr/bin/curl -s x', 'curl'],
    ['HTTPS_PROXY=x curl x', 'curl'],
    ['nc -l 4444', 'nc'],
    ['alias ll="ls -l"', 'alias'],
  ])('%j is banned as %s', (command, name) => {
    expect(findBannedCommand(command)?.name).toBe(name);
  });

  it.each(['ls', 'curlx', 'git clone https://x', 'echo curl', 'FOO=1'])('%j is not banned', (command) => {
    expect(findBannedCommand(command)).toBeUndefined();
  });
});
