/**
 * The pulse and the queue components on their own (ink-testing-library): the pulse's line and its
 * spinner moving by its own timer; the queued prompts' lines, and ↑ / enter reaching the queue only
 * from an empty editor.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pulse, PULSE_FRAME_MS, SPINNER_FRAMES } from '../../src/tui/components/Pulse.js';
import { QueuedPrompts, queueLines } from '../../src/tui/components/QueuedPrompts.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import type { QueuedPrompt } from '../../src/tui/state/chat-store.js';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.useRealTimers();
});

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
/** React's passive effects (the pulse's timer starts in one) and updates from a timer run once its scheduler gets a turn */
const effects = () => new Promise((r) => setImmediate(r));
async function until(read: () => string, check: (frame: string) => boolean): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const frame = read();
    if (check(frame)) return frame;
    await tick(20);
  }
  throw new Error(`timed out; last frame:\n${read()}`);
}

const prompt = (id: number, text: string, images = 0): QueuedPrompt => ({
  id,
  text,
  attachments: Array.from({ length: images }, () => ({ type: 'image' as const, mimeType: 'image/png', data: '' })),
});

describe('Pulse', () => {
  it('draws spinner, label, elapsed time and the key, and the spinner moves on its own', async () => {
    const ui = render(
      <Pulse
        activity={{ label: 'Running bash: npm test', startedAt: 0 }}
        width={80}
        interruptKey="esc"
        now={() => 65_000}
      />,
    );
    unmount = ui.unmount;
    const first = ui.lastFrame()!;
    expect(first).toBe(`${SPINNER_FRAMES[0]} Running bash: npm test · 1m 5s · esc to interrupt`);
    const next = await until(
      () => ui.lastFrame()!,
      (f) => f !== first,
    );
    expect(next).toBe(`${SPINNER_FRAMES[1]} Running bash: npm test · 1m 5s · esc to interrupt`);
  });

  it('steps on frames the app draws anyway and then draws none of its own (a streamed reply: one Ink frame per update, not one more per tick)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let t = 0;
    const clock = () => t;
    const pulse = () => (
      <Pulse
        activity={{ label: 'Thinking…', startedAt: 0 }}
        width={40}
        interruptKey="esc"
        now={() => 0}
        clock={clock}
      />
    );
    const ui = render(pulse());
    unmount = ui.unmount;
    await effects();
    const before = ui.frames.length;
    const glyphs: string[] = [];
    // the app redraws every 25 ms for 1 s (its store's notifications while tokens arrive)
    for (let i = 1; i <= 40; i++) {
      t += 25;
      await vi.advanceTimersByTimeAsync(25);
      await effects();
      ui.rerender(pulse());
      glyphs.push([...ui.lastFrame()!][0]!);
    }
    // 40 frames, the app's: the pulse's 8 ticks drew none (each was one more whole frame before)
    expect(ui.frames.length - before).toBe(40);
    // the spinner stepped every 100 ms (PULSE_STEP_MS) on those frames
    expect(glyphs).toEqual(
      Array.from({ length: 40 }, (_, i) => SPINNER_FRAMES[Math.floor((25 * (i + 1)) / 100) % SPINNER_FRAMES.length]),
    );
  });

  it('draws a frame of its own at each tick while nothing else draws (a silent provider), stepping each time', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let t = 0;
    const ui = render(
      <Pulse
        activity={{ label: 'Thinking…', startedAt: 0 }}
        width={40}
        interruptKey="esc"
        now={() => 0}
        clock={() => t}
      />,
    );
    unmount = ui.unmount;
    await effects();
    const before = ui.frames.length;
    const glyphs: string[] = [];
    for (let i = 1; i <= 12; i++) {
      // the timer a little late or early, as under load
      t += PULSE_FRAME_MS + (i % 2 === 0 ? 7 : -7);
      await vi.advanceTimersByTimeAsync(PULSE_FRAME_MS);
      await effects();
      glyphs.push([...ui.lastFrame()!][0]!);
    }
    expect(ui.frames.length - before).toBe(12);
    expect(glyphs).toEqual(Array.from({ length: 12 }, (_, i) => SPINNER_FRAMES[(i + 1) % SPINNER_FRAMES.length]));
  });

  it('is cut to its width', () => {
    const ui = render(
      <Pulse activity={{ label: 'Thinking…', startedAt: 0 }} width={20} interruptKey="esc" now={() => 0} />,
    );
    unmount = ui.unmount;
    expect(ui.lastFrame()).toBe(`${SPINNER_FRAMES[0]} Thinking… · 0s · e`);
  });
});

describe('QueuedPrompts', () => {
  it('lists the newest three, first lines only, and says how many more and what the keys do', () => {
    const queue = [prompt(1, 'one'), prompt(2, 'two\nsecond line'), prompt(3, 'three', 2), prompt(4, 'four')];
    expect(queueLines(queue, false, { recall: 'up', clear: 'esc' })).toEqual([
      '… 1 more queued',
      'queued  two …',
      'queued  three [2 images]',
      'queued  four',
      '  sent when the reply ends; up edits the last, esc esc cancels and clears',
    ]);
    expect(queueLines(queue.slice(0, 1), true, { recall: 'up', clear: 'esc' })).toEqual([
      'queued  one',
      '  held after the cancel: enter sends, esc clears, up edits the last',
    ]);
    expect(queueLines([], true, { recall: 'up', clear: 'esc' })).toEqual([]);
  });

  it('↑ recalls and enter releases a held queue, only while the editor is empty; other keys pass', async () => {
    let editorText = '';
    const calls: string[] = [];
    const ui = render(
      <InputProvider>
        <QueuedPrompts
          queue={[prompt(1, 'queued one')]}
          held
          width={80}
          active
          isEditorEmpty={() => editorText === ''}
          onRecall={() => calls.push('recall')}
          onRelease={() => calls.push('release')}
        />
      </InputProvider>,
    );
    unmount = ui.unmount;
    expect(ui.lastFrame()).toContain('queued  queued one');
    ui.stdin.write('\u001b[A');
    await tick();
    ui.stdin.write('\r');
    await tick();
    editorText = 'draft';
    ui.stdin.write('\u001b[A');
    await tick();
    ui.stdin.write('\r');
    await tick();
    expect(calls).toEqual(['recall', 'release']);
  });
});
