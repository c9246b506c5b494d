import { describe, expect, it, vi } from 'vitest';
import { CommandsDialog } from '../../src/tui/dialogs/CommandsDialog.js';
import { InitDialog } from '../../src/tui/dialogs/InitDialog.js';
import { listRow } from '../../src/tui/dialogs/ListDialog.js';
import { ModelsDialog } from '../../src/tui/dialogs/ModelsDialog.js';
import { QuitDialog } from '../../src/tui/dialogs/QuitDialog.js';
import { dialogPerTest, KEYS, settle } from '../support/render-dialog.js';

const show = dialogPerTest();

describe('models dialog', () => {
  const providers = [
    {
      id: 'anthropic',
      name: 'Anthropic',
      models: [
        { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' },
        { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5' },
      ],
    },
    {
      id: 'openai',
      name: 'OpenAI',
      models: [
        { id: 'gpt-5', name: 'GPT-5' },
        { id: 'gpt-5-mini', name: 'GPT-5 mini' },
        { id: 'o3', name: 'o3' },
      ],
    },
    { id: 'groq', name: 'Groq', models: [{ id: 'llama-4', name: 'Llama 4' }] },
  ];

  it("opens on the current model's provider, and ←/→/h/l switch provider in the given order", async () => {
    const onSelect = vi.fn();
    const d = await show(
      <ModelsDialog providers={providers} currentModelId="gpt-5-mini" onSelect={onSelect} onClose={() => {}} />,
    );
    expect(d.frame()).toContain('← OpenAI (2/3) →');
    expect(d.frame()).toMatch(/│ ✓ GPT-5 mini +│/);
    expect(d.frame().split('\n')[0]).toHaveLength(40);
    await d.press(KEYS.enter);
    expect(onSelect.mock.calls).toEqual([['gpt-5-mini', { global: false }]]);

    await d.press(KEYS.right);
    expect(d.frame()).toContain('← Groq (3/3) →');
    expect(d.frame()).toContain('Llama 4');
    expect(d.frame()).not.toContain('GPT-5');

    await d.press('l');
    expect(d.frame()).toContain('← Anthropic (1/3) →');
    await d.press(KEYS.down, KEYS.enter);
    expect(onSelect.mock.calls[1]).toEqual(['claude-haiku-4-5', { global: false }]);

    await d.press(KEYS.left, 'h');
    expect(d.frame()).toContain('← OpenAI (2/3) →');
    await d.press(KEYS.up, KEYS.enter);
    expect(onSelect.mock.calls[2]).toEqual(['gpt-5', { global: false }]);
  });

  it('enter saves to this project, g to the global config, as the footer says', async () => {
    const onSelect = vi.fn();
    const d = await show(
      <ModelsDialog providers={providers} currentModelId="gpt-5-mini" onSelect={onSelect} onClose={() => {}} />,
    );
    expect(d.frame()).toMatch(/│ enter: this project · g: global +│/);
    await d.press('g');
    expect(onSelect.mock.calls).toEqual([['gpt-5-mini', { global: true }]]);
    // the selection moved, and after a provider switch the new list's first row
    await d.press(KEYS.down, 'g', KEYS.right, 'g');
    expect(onSelect.mock.calls.slice(1)).toEqual([
      ['o3', { global: true }],
      ['llama-4', { global: true }],
    ]);
  });
});

describe('commands dialog', () => {
  it("runs the chosen command and shows the selected one's description", async () => {
    const onRun = vi.fn();
    const commands = [
      { id: 'init', title: 'Initialize Project', description: 'Create or update OpenCode.md' },
      {
        id: 'user:git:commit',
        title: 'user:git:commit',
        description: 'from ~/.config/opencode/commands/git/commit.md',
      },
    ];
    const d = await show(<CommandsDialog commands={commands} onRun={onRun} onClose={() => {}} />);
    expect(d.frame()).toContain('Commands');
    expect(d.frame()).toContain('Create or update OpenCode.md');
    await d.press(KEYS.down);
    expect(d.frame()).toContain('from ~/.config/opencode/commands/git/commit.md');
    await d.press(KEYS.enter);
    expect(onRun.mock.calls).toEqual([['user:git:commit']]);
  });

  it('filters by typing: letters narrow the list, backspace widens it, enter runs the first match', async () => {
    const onRun = vi.fn();
    const commands = [
      { id: 'new', name: 'new', title: 'New Session', description: 'Start a new session' },
      { id: 'models', name: 'models', title: 'Select Model', description: 'Choose the model' },
      { id: 'compact', name: 'compact', title: 'Compact Session', description: 'Summarise this session' },
      {
        id: 'user:git:commit',
        name: 'user:git:commit',
        title: 'user:git:commit',
        description: 'from ~/.config/opencode/commands/git/commit.md',
      },
    ];
    const d = await show(
      <CommandsDialog commands={commands} onRun={onRun} onClose={() => {}} width={80} height={24} />,
    );
    expect(d.frame()).toContain('> type to filter');
    // the built-ins show their /name at the right; a custom command's title is its name
    expect(d.frame()).toMatch(/│   Select Model +\/models │/);
    expect(d.frame()).toMatch(/│   user:git:commit +│/);
    // j and k are letters here, not moves
    await d.press('c', 'o', 'm', 'm', 'i');
    const rows = d.frame().split('\n');
    expect(rows.filter((r) => r.includes('Session') || r.includes('Model') || r.includes('user:git'))).toEqual([
      expect.stringMatching(/│ {3}user:git:commit +│/),
    ]);
    expect(d.frame()).toContain('> commi');
    expect(d.frame()).toContain('from ~/.config/opencode/commands/git/commit.md');
    await d.press('\u007f', '\u007f', '\u007f');
    expect(d.frame()).toContain('> co');
    expect(d.frame()).toContain('Compact Session');
    await d.press('x', 'y', 'z');
    expect(d.frame()).toContain('Nothing matches');
    await d.press(KEYS.enter);
    expect(onRun).not.toHaveBeenCalled();
    await d.press('\u007f', '\u007f', '\u007f', 'd', 'e', 'l', KEYS.enter);
    expect(onRun.mock.calls).toEqual([['models']]);
  });
});

describe('quit dialog', () => {
  it('y quits; n and esc close; enter presses the selected button, No at first', async () => {
    const onQuit = vi.fn();
    const onClose = vi.fn();
    const d = await show(<QuitDialog onQuit={onQuit} onClose={onClose} />);
    expect(d.frame()).toContain('Quit opencode?');
    expect(d.frame()).toContain('›No (n)‹');
    await d.press('n');
    expect(onClose).toHaveBeenCalledTimes(1);
    await d.press(KEYS.esc);
    await settle();
    expect(onClose).toHaveBeenCalledTimes(2);
    await d.press(KEYS.enter);
    expect(onClose).toHaveBeenCalledTimes(3);
    expect(onQuit).not.toHaveBeenCalled();
    await d.press(KEYS.left, KEYS.enter);
    expect(onQuit).toHaveBeenCalledTimes(1);
    await d.press('y');
    expect(onQuit).toHaveBeenCalledTimes(2);
    expect(onClose).toHaveBeenCalledTimes(3);
  });
});

describe('init dialog', () => {
  it('explains, and answers y/n directly, enter with the selection (Yes first), esc and q as no', async () => {
    const onAnswer = vi.fn();
    const d = await show(<InitDialog onAnswer={onAnswer} width={100} height={30} />);
    expect(d.frame()).toContain('Initialize Project');
    expect(d.frame()).toContain('OpenCode.md');
    expect(d.frame()).toContain('Would you like to initialize this project?');
    await d.press(KEYS.enter);
    await d.press(KEYS.tab, KEYS.enter);
    await d.press('l', 'h', KEYS.enter);
    await d.press('y', 'n', 'q', KEYS.esc);
    await settle();
    expect(onAnswer.mock.calls).toEqual([[true], [false], [false], [true], [false], [false], [false]]);
  });
});

describe('list rows', () => {
  it('cut the label, keep the detail right-aligned, and fill the width', () => {
    expect(listRow({ id: 'a', label: 'Short', detail: '5m ago' }, 24)).toBe('  Short           5m ago');
    expect(listRow({ id: 'a', label: 'A rather long session title', detail: '5m ago', current: true }, 24)).toBe(
      '✓ A rather long…  5m ago',
    );
    expect(listRow({ id: 'a', label: '日本語のタイトル' }, 10)).toBe('  日本語… ');
  });
});
