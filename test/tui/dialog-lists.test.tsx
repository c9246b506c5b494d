import { render } from 'ink-testing-library';
import type React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandsDialog } from '../../src/tui/dialogs/CommandsDialog.js';
import { InitDialog } from '../../src/tui/dialogs/InitDialog.js';
import { listRow } from '../../src/tui/dialogs/ListDialog.js';
import { ModelsDialog } from '../../src/tui/dialogs/ModelsDialog.js';
import { QuitDialog } from '../../src/tui/dialogs/QuitDialog.js';
import { SessionsDialog, relativeTime } from '../../src/tui/dialogs/SessionsDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';

const settle = () => new Promise((r) => setTimeout(r, 30));
const KEYS = { enter: '\r', up: '\u001b[A', down: '\u001b[B', left: '\u001b[D', right: '\u001b[C', tab: '\t', esc: '\u001b' };

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

async function show(node: React.ReactNode) {
  const r = render(<InputProvider>{node}</InputProvider>);
  unmount = r.unmount;
  await settle();
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      r.stdin.write(k);
      await settle();
    }
  };
  return { ...r, press, frame: () => r.lastFrame() ?? '' };
}

const NOW = Date.UTC(2025, 0, 10, 12, 0, 0);
const MINUTE = 60_000;

describe('sessions dialog', () => {
  const sessions = Array.from({ length: 14 }, (_, i) => ({
    id: `s${i}`,
    title: `Session ${i}`,
    updatedAt: NOW - i * 7 * MINUTE,
    messageCount: i,
  }));

  it('lists the sessions with counts and relative times, the current one marked and selected', async () => {
    const d = await show(
      <SessionsDialog sessions={sessions} currentId="s2" onSelect={() => {}} onClose={() => {}} now={NOW} width={100} height={30} />,
    );
    const frame = d.frame();
    expect(frame).toContain('Switch Session');
    expect(frame).toMatch(/│ {3}Session 0 +0 msgs · just now │/);
    expect(frame).toMatch(/│ {3}Session 1 +1 msg · 7m ago │/);
    expect(frame).toMatch(/│ ✓ Session 2 +2 msgs · 14m ago │/);
    expect(frame).toContain('Session 9');
    expect(frame).not.toContain('Session 10');
    expect(frame).toContain('↓ more');
  });

  it('enter on the current session selects it; ↓/j move; the list scrolls past ten rows', async () => {
    const onSelect = vi.fn();
    const d = await show(<SessionsDialog sessions={sessions} currentId="s2" onSelect={onSelect} onClose={() => {}} now={NOW} />);
    await d.press(KEYS.enter);
    expect(onSelect.mock.calls).toEqual([['s2']]);
    await d.press(KEYS.down, 'j', 'k', KEYS.down, KEYS.enter);
    expect(onSelect.mock.calls).toEqual([['s2'], ['s4']]);
    await d.press(...Array(10).fill('j'), KEYS.enter);
    expect(onSelect.mock.calls[2]).toEqual(['s13']);
    expect(d.frame()).toContain('Session 13');
    expect(d.frame()).toContain('↑ more');
    expect(d.frame()).not.toContain('Session 3 ');
  });

  it('esc closes', async () => {
    const onClose = vi.fn();
    const d = await show(<SessionsDialog sessions={sessions} onSelect={() => {}} onClose={onClose} now={NOW} />);
    await d.press(KEYS.esc);
    await settle();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says how long ago', () => {
    expect(relativeTime(NOW - 59_000, NOW)).toBe('just now');
    expect(relativeTime(NOW + 5_000, NOW)).toBe('just now');
    expect(relativeTime(NOW - 5 * MINUTE, NOW)).toBe('5m ago');
    expect(relativeTime(NOW - 3 * 60 * MINUTE, NOW)).toBe('3h ago');
    expect(relativeTime(NOW - 2 * 24 * 60 * MINUTE, NOW)).toBe('2d ago');
    const old = new Date(2024, 5, 3, 12).getTime();
    expect(relativeTime(old, NOW)).toBe('2024-06-03');
  });
});

describe('models dialog', () => {
  const providers = [
    { id: 'anthropic', name: 'Anthropic', models: [{ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' }, { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5' }] },
    { id: 'openai', name: 'OpenAI', models: [{ id: 'gpt-5', name: 'GPT-5' }, { id: 'gpt-5-mini', name: 'GPT-5 mini' }, { id: 'o3', name: 'o3' }] },
    { id: 'groq', name: 'Groq', models: [{ id: 'llama-4', name: 'Llama 4' }] },
  ];

  it("opens on the current model's provider, and ←/→/h/l switch provider in the given order", async () => {
    const onSelect = vi.fn();
    const d = await show(<ModelsDialog providers={providers} currentModelId="gpt-5-mini" onSelect={onSelect} onClose={() => {}} />);
    expect(d.frame()).toContain('← OpenAI (2/3) →');
    expect(d.frame()).toMatch(/│ ✓ GPT-5 mini +│/);
    expect(d.frame().split('\n')[0]).toHaveLength(40);
    await d.press(KEYS.enter);
    expect(onSelect.mock.calls).toEqual([['gpt-5-mini']]);

    await d.press(KEYS.right);
    expect(d.frame()).toContain('← Groq (3/3) →');
    expect(d.frame()).toContain('Llama 4');
    expect(d.frame()).not.toContain('GPT-5');

    await d.press('l');
    expect(d.frame()).toContain('← Anthropic (1/3) →');
    await d.press(KEYS.down, KEYS.enter);
    expect(onSelect.mock.calls[1]).toEqual(['claude-haiku-4-5']);

    await d.press(KEYS.left, 'h');
    expect(d.frame()).toContain('← OpenAI (2/3) →');
    await d.press(KEYS.up, KEYS.enter);
    expect(onSelect.mock.calls[2]).toEqual(['gpt-5']);
  });
});

describe('commands dialog', () => {
  it("runs the chosen command and shows the selected one's description", async () => {
    const onRun = vi.fn();
    const commands = [
      { id: 'init', title: 'Initialize Project', description: 'Create or update OpenCode.md' },
      { id: 'user:git:commit', title: 'user:git:commit', description: 'from ~/.config/opencode/commands/git/commit.md' },
    ];
    const d = await show(<CommandsDialog commands={commands} onRun={onRun} onClose={() => {}} />);
    expect(d.frame()).toContain('Commands');
    expect(d.frame()).toContain('Create or update OpenCode.md');
    await d.press('j');
    expect(d.frame()).toContain('from ~/.config/opencode/commands/git/commit.md');
    await d.press(KEYS.enter);
    expect(onRun.mock.calls).toEqual([['user:git:commit']]);
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
