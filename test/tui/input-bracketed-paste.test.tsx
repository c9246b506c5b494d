import { Text } from 'ink';
import { render as renderTest } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { InputProvider, LAYER, useKeys, usePaste } from '../../src/tui/input/InputProvider.js';

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('InputProvider', () => {
  it('hands a paste to the top paste handler and keys to the top key handler first, through Ink', async () => {
    const pastes: string[] = [];
    const keys: string[] = [];
    function Probe() {
      usePaste((t) => pastes.push(`editor:${t}`), { layer: LAYER.editor });
      usePaste((t) => pastes.push(`popup:${t}`), { layer: LAYER.popup });
      useKeys((k) => void keys.push(`editor:${k.name}`), { layer: LAYER.editor });
      useKeys((k) => (keys.push(`dialog:${k.name}`), k.name === 'q'), { layer: LAYER.dialog });
      return <Text>probe</Text>;
    }
    const { stdin, lastFrame } = renderTest(
      <InputProvider>
        <Probe />
      </InputProvider>,
    );
    await tick();
    stdin.write('\u001b[200~a\u0000b\u001b[31m\tc\r\n\u001b[201~');
    stdin.write('q');
    stdin.write('w');
    await tick();
    expect(pastes).toEqual(['popup:ab\tc\n']);
    expect(keys).toEqual(['dialog:q', 'dialog:w', 'editor:w']);
    expect(lastFrame()).toBe('probe');
  });
});
