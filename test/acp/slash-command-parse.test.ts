/** Slash commands: what is advertised, and which prompt calls which command with which values. */
import { describe, expect, it } from 'vitest';
import { availableCommands, parseCommand } from '../../src/acp/commands.js';
import type { CustomCommand } from '../../src/custom/commands.js';

const command = (id: string, content: string, placeholders: string[]): CustomCommand => ({
  id,
  title: id,
  description: `from ${id}.md`,
  content,
  placeholders,
});
const custom = [
  command('project:fix', 'Fix issue $ISSUE.', ['ISSUE']),
  command('user:pr', 'Open a PR "$TITLE" onto $BRANCH.', ['TITLE', 'BRANCH']),
  command('user:hi', 'Say hi.', []),
];

describe('availableCommands', () => {
  it('lists the built-in commands, then the custom ones with the hint of their placeholders', () => {
    expect(availableCommands(custom).map((c) => [c.name, c.input?.hint])).toEqual([
      ['init', undefined],
      ['compact', undefined],
      ['project:fix', 'ISSUE'],
      ['user:pr', 'TITLE=… BRANCH=…'],
      ['user:hi', undefined],
    ]);
  });
});

describe('parseCommand', () => {
  it.each([
    ['/init', { kind: 'builtin', name: 'init' }],
    ['  /compact  ', { kind: 'builtin', name: 'compact' }],
    ['/project:fix 42 and 43', { kind: 'custom', command: custom[0], prompt: 'Fix issue 42 and 43.' }],
    [
      '/user:pr TITLE=Fix the login BRANCH=main',
      { kind: 'custom', command: custom[1], prompt: 'Open a PR "Fix the login" onto main.' },
    ],
    ['/user:hi', { kind: 'custom', command: custom[2], prompt: 'Say hi.' }],
    ['/usr/bin/env is where?', undefined],
    ['please /init', undefined],
  ] as const)('%j', (text, expected) => {
    expect(parseCommand(text, custom)).toEqual(expected);
  });

  it('a custom command without its values says how to call it', () => {
    expect(() => parseCommand('/project:fix', custom)).toThrow('/project:fix needs $ISSUE: type /project:fix ISSUE');
    expect(() => parseCommand('/user:pr TITLE=x', custom)).toThrow(
      '/user:pr needs $BRANCH: type /user:pr TITLE=… BRANCH=…',
    );
  });
});
