import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const noFiles = async () => [];

function setup() {
  const onSubmit = vi.fn();
  const app = render(
    <InputProvider>
      <Editor onSubmit={onSubmit} cwd="/" history={[]} width={60} focus listFiles={noFiles} />
    </InputProvider>,
  );
  return { ...app, onSubmit };
}

describe('editor paste', () => {
  it('takes a 20 KB multi-line bracketed paste whole without sending, then enter sends exactly it', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await tick();
    const lines = Array.from(
      { length: 400 },
      (_, i) => `row ${String(i + 1).padStart(3, '0')} ${'x'.repeat(40)} 中文👍🏽`,
    );
    const pasted = lines.join('\n');
    expect(pasted.length).toBeGreaterThan(20_000);
    // a terminal delivers a long paste in pieces
    stdin.write('\u001b[200~' + pasted.slice(0, 8000));
    stdin.write(pasted.slice(8000, 16000));
    stdin.write(pasted.slice(16000) + '\u001b[201~');
    await tick(100);
    expect(onSubmit).not.toHaveBeenCalled();
    const frame = lastFrame()!;
    expect(frame).toContain('  … 392 more lines');
    expect(frame).toContain(`  row 400 ${'x'.repeat(40)} 中文👍🏽`);
    expect(frame.split('\n')).toHaveLength(1 + 1 + 8); // border, hint, 8 rows
    stdin.write('\r');
    await tick();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toBe(pasted);
    expect(onSubmit.mock.calls[0]![1]).toEqual([]);
    expect(lastFrame()).toBe(`${'─'.repeat(60)}\n>`);
  });

  it('inserts a paste at the cursor, sanitised', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await tick();
    stdin.write('ab');
    await tick();
    stdin.write('\u001b[D'); // left: between a and b
    await tick();
    stdin.write('\u001b[200~1\t2\u001b[31m\r\n3\u001b[201~');
    await tick();
    expect(lastFrame()).toBe(`${'─'.repeat(60)}\n> a1    2\n  3b`);
    stdin.write('\r');
    await tick();
    expect(onSubmit.mock.calls[0]![0]).toBe('a1\t2\n3b');
  });

  it('a short text and enter in one read are keys typed ahead: the text, then enter sends it', async () => {
    const { stdin, onSubmit } = setup();
    await tick();
    stdin.write('typed fast\r');
    // held as a possible paste until the reads stop (paste-burst.ts), then taken as keys
    await tick(200);
    expect(onSubmit.mock.calls[0]![0]).toBe('typed fast');
  });
});
