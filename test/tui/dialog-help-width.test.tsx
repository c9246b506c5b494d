/**
 * The help dialog uses the width there is: on a wide screen every description shows whole (it was
 * 80 columns wide whatever the screen, and cut the longer descriptions); on a narrow one it takes the
 * screen's width and only then cuts.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HelpDialog } from '../../src/tui/dialogs/HelpDialog.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import { BINDINGS } from '../../src/tui/keybindings.js';

const settle = () => new Promise((r) => setTimeout(r, 30));
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

async function frameAt(width: number): Promise<string[]> {
  const r = render(
    <InputProvider>
      <HelpDialog onClose={vi.fn()} width={width} height={300} />
    </InputProvider>,
  );
  unmount = r.unmount;
  await settle();
  return (r.lastFrame() ?? '').split('\n');
}

describe('help dialog width', () => {
  it('on a wide screen, every description is whole', async () => {
    const lines = await frameAt(200);
    for (const b of BINDINGS)
      expect(
        lines.some(
          (l) =>
            l.includes(` ${b.description} `) || l.endsWith(` ${b.description}│`) || l.includes(` ${b.description}│`),
        ),
        b.description,
      ).toBe(true);
    expect(lines.join('\n')).not.toContain('…');
  });

  it('on a narrow screen, the frame takes the screen less a column each side, and cuts', async () => {
    const lines = await frameAt(60);
    const border = lines.find((l) => l.includes('╭'))!;
    expect(border.trim().length).toBe(58);
    expect(lines.join('\n')).toContain('…');
  });
});
