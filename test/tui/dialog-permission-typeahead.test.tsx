/**
 * The permission dialog must not take the next letter of someone's typing as an answer: when it
 * appears while the person writes their next prompt, the `a` of "and" continues their typing run
 * and does not allow the call. The clock is the InputRouter's, injected, so the gaps are exact.
 */
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PermissionDecision } from '../../src/permission/types.js';
import {
  PermissionDialog,
  TYPEAHEAD_GAP_MS,
  typeaheadHold,
  typeaheadNote,
} from '../../src/tui/dialogs/PermissionDialog.js';
import { InputProvider, InputRouter, LAYER, useKeys } from '../../src/tui/input/InputProvider.js';
import { parseKey } from '../../src/tui/input/keys.js';
import { RM_VICTIM_CWD, RM_VICTIM_REQUEST } from '../support/permission-request.js';

const CWD = RM_VICTIM_CWD;
const request = RM_VICTIM_REQUEST;
const settle = () => new Promise((r) => setTimeout(r, 30));
const NOTE = 'Typing went on as this appeared: press a again to allow';

/** The editor's stand-in: what was typed into it, as text. */
function Editor({ typed }: { typed: string[] }) {
  const [text, setText] = useState('');
  useKeys(
    (key) => {
      typed.push(key.sequence);
      setText((t) => t + key.sequence);
      return true;
    },
    { layer: LAYER.editor },
  );
  return <Text>editor: {text}</Text>;
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** An app with an editor; `showDialog()` opens the permission dialog over it. `at(ms)` sets the clock. */
function app() {
  let clock = 0;
  const router = new InputRouter(() => clock);
  const onDecide = vi.fn<(d: PermissionDecision) => void>();
  const typed: string[] = [];
  const tree = (dialog: boolean) => (
    <InputProvider router={router}>
      <Editor typed={typed} />
      {dialog ? (
        <PermissionDialog request={request} queued={0} cwd={CWD} onDecide={onDecide} width={100} height={30} />
      ) : null}
    </InputProvider>
  );
  const r = render(tree(false));
  unmount = r.unmount;
  /** types each character of `text` at `fromMs`, `fromMs + stepMs`, … (one read each, as a person types) */
  const type = async (text: string, fromMs: number, stepMs = 100) => {
    let at = fromMs;
    for (const ch of text) {
      clock = at;
      r.stdin.write(ch);
      await settle();
      at += stepMs;
    }
  };
  const showDialog = async (atMs: number) => {
    clock = atMs;
    r.rerender(tree(true));
    await settle();
  };
  return { type, showDialog, onDecide, typed, frame: () => r.lastFrame() ?? '' };
}

describe('permission dialog: typeahead', () => {
  it('the `a` of "hello anyway", typed on as the dialog appears, does not allow; the note says so; `a` after a pause allows', async () => {
    const t = app();
    await t.type('hello ', 0); // keys at 0 … 500 ms, into the editor
    await t.showDialog(550);
    expect(t.frame()).toContain('Permission Required');
    expect(t.frame()).not.toContain('Typing went on');

    await t.type('anyway', 600); // 100 ms after the space: the same run; its second `a` too
    expect(t.onDecide).not.toHaveBeenCalled();
    expect(t.typed.join('')).toBe('hello ');
    expect(t.frame()).toContain(NOTE);

    // the person stops (the last key came at 1100), reads, and answers
    await t.type('a', 1100 + TYPEAHEAD_GAP_MS);
    expect(t.onDecide.mock.calls).toEqual([['allow']]);
  });

  it('enter and space on the Allow button, and s and p, are held the same way', async () => {
    for (const key of ['\r', ' ', 's', 'p']) {
      const t = app();
      await t.type('ok ', 0);
      await t.showDialog(250);
      await t.type(key, 300);
      expect(t.onDecide, JSON.stringify(key)).not.toHaveBeenCalled();
      expect(t.frame()).toContain('Typing went on as this appeared: press');
      unmount?.();
    }
  });

  it('d typed on as the dialog appears denies at once', async () => {
    const t = app();
    await t.type('hello ', 0);
    await t.showDialog(550);
    await t.type('d', 600);
    expect(t.onDecide.mock.calls).toEqual([['deny']]);
  });

  it('with nothing typed before the dialog, `a` allows at once', async () => {
    const t = app();
    await t.showDialog(10_000);
    await t.type('a', 10_050);
    expect(t.onDecide.mock.calls).toEqual([['allow']]);
    expect(t.frame()).not.toContain('Typing went on');
  });

  it('when typing had stopped before the dialog came, a quick `a` allows at once', async () => {
    const t = app();
    await t.type('hello', 0);
    await t.showDialog(1_000); // the last key came at 400
    await t.type('a', 1_050); // 650 ms after it: a pause, then a quick answer
    expect(t.onDecide.mock.calls).toEqual([['allow']]);
  });

  it('the enter that sent the prompt ends the run: send, see the dialog, press a at once, and it allows', async () => {
    const t = app();
    await t.type('hello\r', 0); // the prompt is sent at 500 ms
    await t.showDialog(550); // a quick model
    await t.type('a', 600);
    expect(t.onDecide.mock.calls).toEqual([['allow']]);
  });
});

describe('typeaheadHold', () => {
  it.each([
    // runFromBefore, gapMs, held, runGoesOn — example
    [true, 120, true, true], // the `a` of "hello and", the dialog came after "hello "
    [true, TYPEAHEAD_GAP_MS - 1, true, true], // just inside the run
    [true, TYPEAHEAD_GAP_MS, false, false], // a gap of the constant ends the run
    [true, Infinity, false, false], // nothing typed before the dialog
    [false, 80, false, false], // after one pause, quick presses answer
  ] as const)('run %s, gap %s ms → held %s', (runFromBefore, gapMs, held, runGoesOn) => {
    expect(typeaheadHold(runFromBefore, gapMs)).toEqual({ held, runGoesOn });
  });

  it('names the key and what it grants', () => {
    expect(typeaheadNote('a', 'allow')).toBe(NOTE);
    expect(typeaheadNote('s', 'allow_session')).toBe(
      'Typing went on as this appeared: press s again to allow for session',
    );
    expect(typeaheadNote('enter', 'allow_always')).toBe(
      'Typing went on as this appeared: press enter again to always allow in project',
    );
    expect(typeaheadNote(undefined, 'allow')).toBe('Typing went on as this appeared: answer again to allow');
  });
});

describe('InputRouter.typingGapMs', () => {
  it('does not count a stall of the app as a pause in the typing (keys typed meanwhile wait in the terminal)', async () => {
    const router = new InputRouter(); // the real clock: the stall watch runs
    expect(router.typingGapMs()).toBe(Infinity);
    router.key(parseKey('h'));
    const busyUntil = performance.now() + 2 * TYPEAHEAD_GAP_MS; // the app renders something big
    while (performance.now() < busyUntil) {
      // blocked: no timer, no input
    }
    await new Promise((r) => setTimeout(r, 0)); // the next turn: the stall watch's late tick, then input
    expect(router.now() - router.lastKeyAt).toBeGreaterThanOrEqual(2 * TYPEAHEAD_GAP_MS);
    expect(router.typingGapMs()).toBeLessThan(TYPEAHEAD_GAP_MS);
  });
});
