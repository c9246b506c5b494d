/**
 * Navigation keys that arrive in ONE read (`tmux send-keys Down Down`, three `\e[B` in one write)
 * each count: a list's key handler moves from where the previous key left the selection, not from
 * the value its render closed over (the bug: 2 Downs moved 1 row in the commands and profiles
 * dialogs, and a person chose the wrong row).
 */
import type React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ArgumentsDialog } from '../../src/tui/dialogs/ArgumentsDialog.js';
import { CommandsDialog } from '../../src/tui/dialogs/CommandsDialog.js';
import { ModelsDialog } from '../../src/tui/dialogs/ModelsDialog.js';
import { InitDialog } from '../../src/tui/dialogs/InitDialog.js';
import { ProfilesDialog } from '../../src/tui/dialogs/ProfilesDialog.js';
import { QuitDialog } from '../../src/tui/dialogs/QuitDialog.js';
import { PermissionDialog } from '../../src/tui/dialogs/PermissionDialog.js';
import { PagerPage } from '../../src/tui/pages/PagerPage.js';
import type { PermissionRequest } from '../../src/permission/types.js';
import { SessionsDialog, type SessionSummary } from '../../src/tui/dialogs/SessionsDialog.js';
import { dialogPerTest, KEYS } from '../support/render-dialog.js';

const show = dialogPerTest();
const noop = () => {};

/**
 * Writes all `keys` to stdin in one write, as a terminal does when they come in one read. The input
 * router then hands them over one per turn of the event loop, and an Enter among them is held until
 * the reads stop (paste-burst.ts: it might be a paste's line break): so tests wait for the outcome
 * with `vi.waitFor` rather than for a fixed time. A wrong row never turns right later, so a wait
 * that ends on the expected value is exact.
 */
function burst(d: { stdin: { write(data: string): void } }, ...keys: string[]) {
  d.stdin.write(keys.join(''));
}

/** Waits until `check` passes (it is retried while keys are still being handled). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

const COMMANDS = ['new', 'models', 'compact', 'init', 'help', 'quit'].map((id) => ({
  id,
  title: `Title ${id}`,
  description: `does ${id}`,
}));

describe('commands dialog: keys in one read', () => {
  it.each([
    [2, 'compact'],
    [4, 'help'],
    [9, 'quit'],
  ])(
    '%i Downs then enter in one write run the command that many rows down (stopping at the end)',
    async (downs, expected) => {
      const onRun = vi.fn();
      const d = await show(<CommandsDialog commands={COMMANDS} onRun={onRun} onClose={noop} />);
      burst(d, ...Array<string>(downs).fill(KEYS.down), KEYS.enter);
      await until(() => expect(onRun.mock.calls).toEqual([[expected]]));
    },
  );

  it('4 Downs then 1 Up in one write, then enter: the fourth row, its description shown', async () => {
    const onRun = vi.fn();
    const d = await show(<CommandsDialog commands={COMMANDS} onRun={onRun} onClose={noop} />);
    burst(d, KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.up);
    d.stdin.write(KEYS.enter);
    await until(() => expect(onRun.mock.calls).toEqual([['init']]));
    await until(() => expect(d.frame()).toContain('does init'));
  });

  it('a filter typed and a Down in the same write move within the filtered list', async () => {
    const onRun = vi.fn();
    const d = await show(<CommandsDialog commands={COMMANDS} onRun={onRun} onClose={noop} />);
    burst(d, 'Title ', KEYS.down, KEYS.down, KEYS.enter);
    await until(() => expect(onRun.mock.calls).toEqual([['compact']]));
  });
});

const PROFILES = ['alpha', 'beta', 'gamma', 'delta'].map((name) => ({ name, coderModel: `p/${name}`, problems: [] }));

describe('profiles dialog: keys in one read', () => {
  const dialog = (onSelect: (name: string | undefined) => void) => (
    <ProfilesDialog profiles={PROFILES} onSelect={onSelect} onClose={noop} width={80} height={24} />
  );

  it.each([
    ['Down Down', [KEYS.down, KEYS.down], 'beta'],
    ['j j', ['j', 'j'], 'beta'],
    ['three raw \\e[B', [KEYS.down, KEYS.down, KEYS.down], 'gamma'],
    ['Down×4 k', [KEYS.down, KEYS.down, KEYS.down, KEYS.down, 'k'], 'gamma'],
  ])(
    '%s in one write, then enter alone, choose the row that many down from "(no profile)"',
    async (_name, keys, expected) => {
      const onSelect = vi.fn();
      const d = await show(dialog(onSelect));
      burst(d, ...keys);
      d.stdin.write(KEYS.enter);
      await until(() => expect(onSelect.mock.calls).toEqual([[expected]]));
    },
  );

  it('keys and enter in the same write choose the row the keys reached', async () => {
    const onSelect = vi.fn();
    const d = await show(dialog(onSelect));
    burst(d, 'j', 'j', 'j', 'j', KEYS.enter);
    await until(() => expect(onSelect.mock.calls).toEqual([['delta']]));
  });
});

describe('sessions dialog: keys in one read', () => {
  const NOW = Date.UTC(2025, 0, 10, 12);
  const sessions: SessionSummary[] = Array.from({ length: 14 }, (_, i) => ({
    id: `s${i}`,
    title: `Session ${i}`,
    updatedAt: NOW,
    messageCount: 1,
    costUsd: 0,
  }));
  const dialog = (props: Partial<React.ComponentProps<typeof SessionsDialog>>) => (
    <SessionsDialog
      sessions={sessions}
      onSelect={noop}
      onClose={noop}
      onRename={noop}
      onDelete={noop}
      now={NOW}
      {...props}
    />
  );

  it('twelve j then enter in one write open the twelfth row down, past the scroll', async () => {
    const onSelect = vi.fn();
    const d = await show(dialog({ currentId: 's0', onSelect }));
    burst(d, ...Array<string>(12).fill('j'), KEYS.enter);
    await until(() => expect(onSelect.mock.calls).toEqual([['s12']]));
    await until(() => expect(d.frame()).toContain('↑ more'));
    expect(d.frame()).toContain('Session 12');
  });

  it('a title edited in one write keeps every key: 9 backspaces and "New"', async () => {
    const onRename = vi.fn();
    const d = await show(dialog({ currentId: 's0', onRename }));
    await d.press('r');
    burst(d, ...Array<string>(9).fill(KEYS.backspace), 'N', 'e', 'w');
    await until(() => expect(d.frame()).toContain('> New█'));
    d.stdin.write(KEYS.enter);
    await until(() => expect(onRename.mock.calls).toEqual([['s0', 'New']]));
  });

  it.each([
    ['→ →, then enter: back on No, nothing deleted', [KEYS.right, KEYS.right], KEYS.enter, []],
    ['→ → →, then space: on Yes, deleted', [KEYS.right, KEYS.right, KEYS.right], ' ', [['s0']]],
  ])('the delete question toggles once per key of one write: %s', async (_name, keys, press, expected) => {
    const onDelete = vi.fn();
    const d = await show(dialog({ currentId: 's0', onDelete }));
    await d.press('d');
    burst(d, ...keys);
    d.stdin.write(press);
    await until(() => expect(d.frame()).toContain('Switch Session'));
    expect(onDelete.mock.calls).toEqual(expected);
  });

  it('j j r in one write rename the row the keys reached, not the first', async () => {
    const d = await show(dialog({ currentId: 's0' }));
    burst(d, 'j', 'j', 'r');
    await until(() => expect(d.frame()).toContain('> Session 2█'));
  });
});

describe('models dialog: keys in one read', () => {
  const providers = [
    { id: 'p', name: 'P', models: ['m0', 'm1', 'm2', 'm3'].map((id) => ({ id, name: `Model ${id}` })) },
  ];

  it('Down Down Down then g in one write save the fourth model globally', async () => {
    const onSelect = vi.fn();
    const d = await show(<ModelsDialog providers={providers} currentModelId="m0" onSelect={onSelect} onClose={noop} />);
    burst(d, KEYS.down, KEYS.down, KEYS.down, 'g', KEYS.up, KEYS.enter);
    await until(() =>
      expect(onSelect.mock.calls).toEqual([
        ['m3', { global: true }],
        ['m2', { global: false }],
      ]),
    );
  });
});

describe('models dialog: a provider switch and the keys after it in one read', () => {
  const providers = [
    { id: 'a', name: 'A', models: ['a0', 'a1', 'a2'].map((id) => ({ id, name: `Model ${id}` })) },
    { id: 'b', name: 'B', models: ['b0', 'b1', 'b2'].map((id) => ({ id, name: `Model ${id}` })) },
    { id: 'c', name: 'C', models: [{ id: 'c0', name: 'Model c0' }] },
  ];

  it.each([
    ["→ g: the next provider's first model", [KEYS.right, 'g'], 'b0'],
    ['→ ↓ g: its second model', [KEYS.right, KEYS.down, 'g'], 'b1'],
    ['l l g: two providers on', ['l', 'l', 'g'], 'c0'],
    [
      '→ ↓ ↓ ← g: back on the current provider, at the current model',
      [KEYS.right, KEYS.down, KEYS.down, KEYS.left, 'g'],
      'a1',
    ],
    [
      '↓ → ↓ ↓ ↓ g: stops at the last row of the new list',
      [KEYS.down, KEYS.right, KEYS.down, KEYS.down, KEYS.down, 'g'],
      'b2',
    ],
  ])('%s', async (_name, keys, expected) => {
    const onSelect = vi.fn();
    const d = await show(<ModelsDialog providers={providers} currentModelId="a1" onSelect={onSelect} onClose={noop} />);
    burst(d, ...keys);
    await until(() => expect(onSelect.mock.calls).toEqual([[expected, { global: true }]]));
  });

  it('→ ↓ then enter in one write save the second model of the next provider to the project', async () => {
    const onSelect = vi.fn();
    const d = await show(<ModelsDialog providers={providers} currentModelId="a1" onSelect={onSelect} onClose={noop} />);
    burst(d, KEYS.right, KEYS.down, KEYS.enter);
    await until(() => expect(onSelect.mock.calls).toEqual([['b1', { global: false }]]));
    await until(() => expect(d.frame()).toMatch(/│ {3}Model b1 +│/));
  });
});

describe('permission dialog: keys in one read', () => {
  const request: PermissionRequest = {
    id: 'p1',
    sessionId: 's1',
    toolName: 'bash',
    action: 'execute',
    description: 'Execute command: git checkout -b feature',
    params: { command: 'git checkout -b feature' },
    path: '/work/project',
    scopes: ['git checkout *'],
    reasons: ['git checkout -b feature: not a read-only command'],
    createdAt: 0,
  };

  it.each([
    ['→ →, then enter', [KEYS.right, KEYS.right], KEYS.enter, 'allow_always'],
    ['tab tab tab, then space', [KEYS.tab, KEYS.tab, KEYS.tab], ' ', 'deny'],
    ['→ → → ←, then enter', [KEYS.right, KEYS.right, KEYS.right, KEYS.left], KEYS.enter, 'allow_always'],
  ])(
    '%s: the buttons move once per key of the one write, and the press answers the button reached',
    async (_name, keys, press, expected) => {
      const onDecide = vi.fn();
      const d = await show(
        <PermissionDialog
          request={request}
          queued={0}
          cwd="/work/project"
          onDecide={onDecide}
          width={100}
          height={30}
        />,
      );
      burst(d, ...keys);
      // the press in a write of its own: the input router hands it over after the moves
      d.stdin.write(press);
      await until(() => expect(onDecide.mock.calls).toEqual([[expected]]));
    },
  );
});

describe('pager: keys in one read', () => {
  it('five Downs in one write scroll five lines', async () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const d = await show(<PagerPage title="Bash" text={text} onBack={noop} width={40} height={11} />);
    burst(d, ...Array<string>(5).fill(KEYS.down));
    await until(() => expect(d.frame()).toContain('lines 6–15 of 50'));
    // and it stays there: no key was left over to move it on
    await new Promise((r) => setTimeout(r, 100));
    expect(d.frame().split('\n')[1]).toBe('line 6');
  });
});

describe('arguments dialog: keys in one read', () => {
  it('text, tab, text in one write fill both fields', async () => {
    const onSubmit = vi.fn();
    const d = await show(
      <ArgumentsDialog names={['ISSUE', 'BRANCH']} onSubmit={onSubmit} onClose={noop} width={80} height={24} />,
    );
    burst(d, '4', '2', KEYS.tab, 'm', 'a', 'i', 'n');
    await until(() => expect(d.frame()).toContain('main'));
    d.stdin.write(KEYS.enter);
    await until(() => expect(onSubmit.mock.calls).toEqual([[{ ISSUE: '42', BRANCH: 'main' }]]));
  });
});

describe('init and quit questions: keys in one read', () => {
  it.each([
    ['tab enter: No, the project is not initialised', [KEYS.tab, KEYS.enter], false],
    ['→ → enter: back on Yes', [KEYS.right, KEYS.right, KEYS.enter], true],
    ['l space: No', ['l', ' '], false],
  ])('init: %s', async (_name, keys, expected) => {
    const onAnswer = vi.fn();
    const d = await show(<InitDialog onAnswer={onAnswer} width={80} height={30} />);
    burst(d, ...keys);
    await until(() => expect(onAnswer.mock.calls).toEqual([[expected]]));
  });

  it.each([
    ['→ enter: Yes, it quits', [KEYS.right, KEYS.enter], 'quit'],
    ['tab tab enter: back on No, it stays', [KEYS.tab, KEYS.tab, KEYS.enter], 'close'],
  ])('quit: %s', async (_name, keys, expected) => {
    const outcome = vi.fn();
    const d = await show(<QuitDialog onQuit={() => outcome('quit')} onClose={() => outcome('close')} />);
    burst(d, ...keys);
    await until(() => expect(outcome.mock.calls).toEqual([[expected]]));
  });
});
