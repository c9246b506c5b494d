import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { formatLogTime, newestFirst, type LogEntry } from '../../src/tui/pages/log-entry.js';
import { LogsPage, detailLines } from '../../src/tui/pages/LogsPage.js';

const settle = () => new Promise((r) => setTimeout(r, 30));
const at = (h: number, m: number, s: number) => new Date(2025, 0, 10, h, m, s).getTime();

const ENTRIES: LogEntry[] = [
  { id: 1, time: at(9, 0, 1), level: 'info', message: 'session started' },
  { id: 2, time: at(9, 0, 5), level: 'warn', message: 'LSP gopls exited', details: 'code=1\nsignal=none' },
  {
    id: 3,
    time: at(9, 1, 7),
    level: 'error',
    message:
      'provider request failed: 529 overloaded, retrying in 4 s with a very long message that will not fit on the row',
    details: 'attempt=2\nbody={"type":"overloaded_error"}',
  },
];

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(entries: LogEntry[] = ENTRIES) {
  const onBack = vi.fn();
  const r = render(
    <InputProvider>
      <LogsPage entries={entries} onBack={onBack} width={60} height={16} />
    </InputProvider>,
  );
  unmount = r.unmount;
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      r.stdin.write(k);
      await settle();
    }
  };
  return { ...r, onBack, press, lines: () => (r.lastFrame() ?? '').split('\n') };
}

describe('logs page', () => {
  it('lists the entries newest first with time, level and the message cut to the width', async () => {
    const d = show();
    await settle();
    const lines = d.lines();
    expect(lines[0]).toBe('Logs (3) · ↑↓ select · esc back');
    expect(lines[1]).toBe('Time     Level Message');
    // 60 columns: time 9, level 6, message 45 (ink drops the padding's trailing spaces)
    expect(lines[2]).toBe('09:01:07 ERROR provider request failed: 529 overloaded, ret…');
    expect(lines[3]).toBe('09:00:05 WARN  LSP gopls exited');
    expect(lines[4]).toBe('09:00:01 INFO  session started');
    expect(lines).toHaveLength(16);
  });

  it("shows the selected entry's full message and details below, and ↓/j/k move the selection", async () => {
    const d = show();
    await settle();
    let frame = d.lines().join('\n');
    expect(frame).toContain('09:01:07 ERROR #3');
    expect(frame).toContain(
      '09:01:07 ERROR #3\nprovider request failed: 529 overloaded, retrying in 4 s\nwith a very long message that will not fit on the row\n',
    );
    expect(frame).toContain('attempt=2\nbody={"type":"overloaded_error"}');

    await d.press('\u001b[B');
    frame = d.lines().join('\n');
    expect(frame).toContain('09:00:05 WARN #2\nLSP gopls exited\n\ncode=1\nsignal=none');
    await d.press('j', 'j');
    expect(d.lines().join('\n')).toContain('09:00:01 INFO #1\nsession started');
    await d.press('k');
    expect(d.lines().join('\n')).toContain('09:00:05 WARN #2');
  });

  it('keeps the selected entry selected when new entries arrive', async () => {
    const d = show();
    await settle();
    await d.press('j');
    d.rerender(
      <InputProvider>
        <LogsPage
          entries={[...ENTRIES, { id: 4, time: at(9, 2, 0), level: 'debug', message: 'tick' }]}
          onBack={d.onBack}
          width={60}
          height={16}
        />
      </InputProvider>,
    );
    await settle();
    expect(d.lines()[2]).toBe('09:02:00 DEBUG tick');
    expect(d.lines().join('\n')).toContain('09:00:05 WARN #2');
  });

  it.each([
    ['esc', '\u001b'],
    ['q', 'q'],
    ['backspace', '\u007f'],
  ])('%s goes back', async (_name, key) => {
    const d = show();
    await settle();
    await d.press(key);
    await settle();
    expect(d.onBack).toHaveBeenCalledTimes(1);
  });

  it('says so when there are no entries', async () => {
    const d = show([]);
    await settle();
    expect(d.lines()[2]).toBe('No log records yet');
  });
});

describe('log entries', () => {
  it('format the time as HH:MM:SS local time', () => {
    expect(formatLogTime(at(7, 5, 9))).toBe('07:05:09');
  });

  it('sort newest first, by id within the same millisecond', () => {
    const same = at(9, 0, 0);
    const sorted = newestFirst([
      { id: 1, time: same, level: 'info', message: 'a' },
      { id: 3, time: same - 1, level: 'info', message: 'c' },
      { id: 2, time: same, level: 'info', message: 'b' },
    ]);
    expect(sorted.map((e) => e.id)).toEqual([2, 1, 3]);
  });

  it('detail lines wrap the message and details to the width', () => {
    expect(detailLines({ id: 9, time: at(1, 2, 3), level: 'warn', message: 'abcdefghij', details: 'k=v' }, 4)).toEqual([
      '01:02:03 WARN #9',
      'abcd',
      'efgh',
      'ij',
      '',
      'k=v',
    ]);
  });
});
