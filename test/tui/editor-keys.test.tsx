import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { Editor } from '../../src/tui/components/Editor.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const noFiles = async () => [];
const BORDER = '─'.repeat(40);

function setup(props: { history?: string[]; disabled?: boolean; onSubmit?: (text: string) => boolean | void } = {}) {
  const onSubmit = vi.fn(props.onSubmit ?? (() => undefined));
  const app = render(
    <InputProvider>
      <Editor
        onSubmit={onSubmit}
        cwd="/"
        history={props.history ?? []}
        width={40}
        focus
        disabled={props.disabled}
        listFiles={noFiles}
      />
    </InputProvider>,
  );
  return { ...app, onSubmit };
}

async function type(stdin: { write(s: string): void }, keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick(10);
  }
  await tick();
}

describe('editor keys', () => {
  it('types CJK and emoji one key at a time; backspace removes a whole emoji', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await tick();
    await type(stdin, ['你', '好', ' ', '👍🏽', '🎉']);
    expect(lastFrame()).toBe(`${BORDER}\n> 你好 👍🏽🎉`);
    await type(stdin, ['\u007f']);
    expect(lastFrame()).toBe(`${BORDER}\n> 你好 👍🏽`);
    await type(stdin, ['\u007f', '\u007f']);
    expect(lastFrame()).toBe(`${BORDER}\n> 你好`);
    await type(stdin, ['\u001b[D', '!', '\r']);
    expect(onSubmit.mock.calls[0]![0]).toBe('你!好');
  });

  it('a trailing backslash then enter becomes a newline instead of sending', async () => {
    const { stdin, lastFrame, onSubmit } = setup();
    await tick();
    await type(stdin, ['o', 'n', 'e', '\\', '\r', 't', 'w', 'o']);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).toBe(`${BORDER}\n> one\n  two`);
    await type(stdin, ['\r']);
    expect(onSubmit.mock.calls).toEqual([['one\ntwo', []]]);
    expect(lastFrame()).toBe(`${BORDER}\n>`);
  });

  it('alt+enter and shift+enter (CSI u) insert newlines; blank text is not sent', async () => {
    const { stdin, onSubmit } = setup();
    await tick();
    await type(stdin, ['\r', ' ', '\r']);
    expect(onSubmit).not.toHaveBeenCalled();
    await type(stdin, ['a', '\u001b\r', 'b', '\u001b[13;2u', 'c', '\r']);
    expect(onSubmit.mock.calls[0]![0]).toBe(' a\nb\nc');
  });

  it('while disabled typing works but enter does not send; a refused send keeps the text', async () => {
    const { stdin, lastFrame, onSubmit, rerender } = setup({ disabled: true });
    await tick();
    await type(stdin, ['h', 'i', '\r']);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(lastFrame()).toBe(`${BORDER}\n> hi`);
    const refuse = vi.fn(() => false);
    rerender(
      <InputProvider>
        <Editor onSubmit={refuse} cwd="/" history={[]} width={40} focus listFiles={noFiles} />
      </InputProvider>,
    );
    await tick();
    await type(stdin, ['\r']);
    expect(refuse.mock.calls).toEqual([['hi', []]]);
    expect(lastFrame()).toBe(`${BORDER}\n> hi`);
  });

  it('up and down recall history and bring the draft back', async () => {
    const { stdin, lastFrame } = setup({ history: ['older prompt', 'line one\nline two'] });
    await tick();
    await type(stdin, ['d', 'r', 'a', 'f', 't']);
    await type(stdin, ['\u001b[A']);
    expect(lastFrame()).toBe(`${BORDER}\n> line one\n  line two`);
    // the cursor is on the last line: up moves to the first line, then recalls the older prompt
    await type(stdin, ['\u001b[A']);
    expect(lastFrame()).toBe(`${BORDER}\n> line one\n  line two`);
    await type(stdin, ['\u001b[A']);
    expect(lastFrame()).toBe(`${BORDER}\n> older prompt`);
    await type(stdin, ['\u001b[A']); // nothing older
    expect(lastFrame()).toBe(`${BORDER}\n> older prompt`);
    await type(stdin, ['\u001b[B', '\u001b[B']);
    expect(lastFrame()).toBe(`${BORDER}\n> draft`);
  });

  it('a keystroke re-renders the editor only, not its parent', async () => {
    let parentRenders = 0;
    const submit = () => undefined;
    function Parent() {
      parentRenders++;
      return <Editor onSubmit={submit} cwd="/" history={[]} width={40} focus listFiles={noFiles} />;
    }
    const { stdin, lastFrame } = render(
      <InputProvider>
        <Parent />
      </InputProvider>,
    );
    await tick();
    const before = parentRenders;
    await type(stdin, ['a', 'b', 'c', '\u001b[D', '\u007f']);
    expect(lastFrame()).toBe(`${BORDER}\n> ac`);
    expect(parentRenders).toBe(before);
  });

  it('word and line keys: ctrl+w, ctrl+a, end, alt+left', async () => {
    const { stdin, onSubmit } = setup();
    await tick();
    await type(stdin, ['git commit -m', '\u0017', 'x', '\u0001', '>', '\u001b[F', '\u001b[1;3D', '_', '\r']);
    expect(onSubmit.mock.calls[0]![0]).toBe('>git commit _x');
  });
});
