/**
 * The sessions dialog (ctrl+s): title, message count, cost and age per session; enter
 * switches, `r` renames in place, `d` deletes after a Yes/No question whose default is No.
 */
import type React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SessionsDialog, relativeTime, type SessionSummary } from '../../src/tui/dialogs/SessionsDialog.js';
import { dialogPerTest, KEYS } from '../support/render-dialog.js';

const show = dialogPerTest();

const NOW = Date.UTC(2025, 0, 10, 12, 0, 0);
const MINUTE = 60_000;
const noop = () => {};

const sessions: SessionSummary[] = Array.from({ length: 14 }, (_, i) => ({
  id: `s${i}`,
  title: `Session ${i}`,
  updatedAt: NOW - i * 7 * MINUTE,
  messageCount: i,
  costUsd: i * 0.125,
}));

function dialog(props: Partial<React.ComponentProps<typeof SessionsDialog>> = {}) {
  return (
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
}

describe('sessions dialog: the list', () => {
  it('shows title, message count, cost and age; the current one marked and selected', async () => {
    const d = await show(dialog({ currentId: 's2', width: 100, height: 30 }));
    const frame = d.frame();
    expect(frame).toContain('Switch Session');
    expect(frame).toMatch(/│ {3}Session 0 +0 msgs · \$0\.00 · just now │/);
    expect(frame).toMatch(/│ {3}Session 1 +1 msg · \$0\.13 · 7m ago │/);
    expect(frame).toMatch(/│ ✓ Session 2 +2 msgs · \$0\.25 · 14m ago │/);
    expect(frame).toContain('Session 9');
    expect(frame).not.toContain('Session 10');
    expect(frame).toContain('↓ more');
    expect(frame).toContain('enter open · r rename · d delete · esc close');
  });

  it('enter on the current session selects it; ↓/j move; the list scrolls past ten rows', async () => {
    const onSelect = vi.fn();
    const d = await show(dialog({ currentId: 's2', onSelect }));
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
    const d = await show(dialog({ onClose }));
    await d.press(KEYS.esc);
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

describe('sessions dialog: rename', () => {
  it('r edits the selected title in place; enter saves it and the list shows it', async () => {
    const onRename = vi.fn();
    const d = await show(dialog({ currentId: 's1', onRename, width: 100, height: 30 }));
    await d.press('r');
    expect(d.frame()).toContain('Rename Session');
    expect(d.frame()).toContain('> Session 1█');
    await d.press(KEYS.backspace, 'O', 'n', 'e');
    expect(d.frame()).toContain('> Session One█');
    await d.press(KEYS.enter);
    expect(onRename.mock.calls).toEqual([['s1', 'Session One']]);
    expect(d.frame()).toMatch(/│ ✓ Session One +1 msg · \$0\.13 · 7m ago │/);
  });

  it('esc keeps the old title; an empty title is refused with a reason', async () => {
    const onRename = vi.fn();
    const d = await show(dialog({ onRename }));
    await d.press('r', 'x', KEYS.esc);
    expect(d.frame()).toContain('Session 0 ');
    await d.press('r', ...Array(9).fill(KEYS.backspace), ' ', KEYS.enter);
    expect(d.text()).toContain('A title cannot be empty: type one, or esc to keep the old one');
    expect(onRename).not.toHaveBeenCalled();
  });

  it('shows why a rename failed and stays in the field', async () => {
    const d = await show(
      dialog({
        onRename: () => {
          throw new Error('database is locked');
        },
      }),
    );
    await d.press('r', '!', KEYS.enter);
    expect(d.frame()).toContain('database is locked');
    expect(d.frame()).toContain('> Session 0!█');
  });
});

describe('sessions dialog: delete', () => {
  it('d asks first with No selected: enter keeps the session', async () => {
    const onDelete = vi.fn();
    const d = await show(dialog({ onDelete }));
    await d.press('j', 'd');
    expect(d.frame()).toContain('Delete Session');
    expect(d.text()).toContain('Delete "Session 1" and its 1 message? This cannot be undone.');
    expect(d.frame()).toContain('›No (n)‹');
    await d.press(KEYS.enter);
    expect(onDelete).not.toHaveBeenCalled();
    expect(d.frame()).toContain('Session 1 ');
  });

  it('y deletes: the row goes and the next one is selected; n and esc keep it', async () => {
    const onDelete = vi.fn();
    const onSelect = vi.fn();
    const d = await show(dialog({ onDelete, onSelect }));
    await d.press('j', 'd', 'n', 'd', KEYS.esc);
    expect(onDelete).not.toHaveBeenCalled();
    await d.press('d', 'y');
    expect(onDelete.mock.calls).toEqual([['s1']]);
    expect(d.frame()).not.toMatch(/Session 1 /);
    await d.press(KEYS.enter);
    expect(onSelect.mock.calls).toEqual([['s2']]);
  });

  it('tab then enter on Yes deletes too', async () => {
    const onDelete = vi.fn();
    const d = await show(dialog({ onDelete }));
    await d.press('d', KEYS.tab);
    expect(d.frame()).toContain('›Yes (y)‹');
    await d.press(KEYS.enter);
    expect(onDelete.mock.calls).toEqual([['s0']]);
  });
});
