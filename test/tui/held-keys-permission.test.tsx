/**
 * The safety rule (guide): a key meant for one thing never answers a permission request. Keys held
 * for a list that is still loading (the `@` file list: ↓ and enter wait for it, InputProvider's
 * `WhileLoading`) must never reach a permission dialog that appears meanwhile. They would come out
 * when the list arrives, long after the last key acted on, so the typeahead guard would take an
 * enter on the Allow button as deliberate. The dialog makes the editor lose focus, which closes its
 * completion and drops what was held for it. Real Editor, PermissionDialog and input router; the
 * router's clock injected so the gap is exact.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PermissionDecision } from '../../src/permission/types.js';
import { Editor } from '../../src/tui/components/Editor.js';
import { PermissionDialog, TYPEAHEAD_GAP_MS } from '../../src/tui/dialogs/PermissionDialog.js';
import { InputProvider, InputRouter } from '../../src/tui/input/InputProvider.js';
import { RM_VICTIM_CWD, RM_VICTIM_REQUEST } from '../support/permission-request.js';

const settle = () => new Promise((r) => setTimeout(r, 40));
const CWD = RM_VICTIM_CWD;
const request = RM_VICTIM_REQUEST;

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('keys held for a loading list, and a permission dialog that appears meanwhile', () => {
  it('@ ↓ enter held for the file list never reach the dialog, even when the list arrives long after', async () => {
    let clock = 0;
    const router = new InputRouter(() => clock);
    let resolveFiles!: (files: string[]) => void;
    const files = new Promise<string[]>((resolve) => (resolveFiles = resolve));
    const onDecide = vi.fn<(d: PermissionDecision) => void>();
    const onSubmit = vi.fn();
    const tree = (dialog: boolean) => (
      <InputProvider router={router}>
        <Editor onSubmit={onSubmit} cwd={CWD} history={[]} width={60} focus={!dialog} listFiles={() => files} />
        {dialog ? (
          <PermissionDialog request={request} queued={0} cwd={CWD} onDecide={onDecide} width={100} height={30} />
        ) : null}
      </InputProvider>
    );
    const app = render(tree(false));
    unmount = app.unmount;

    app.stdin.write('@');
    await settle();
    expect(app.lastFrame()).toContain('Loading files…');
    app.stdin.write('\u001b[B\r'); // ↓ enter in one read: held for the list
    await settle();
    expect(router.holding).toBe(true);

    // the permission request comes; the list arrives much later than the gap the guard waits for
    clock = 100;
    app.rerender(tree(true));
    await settle();
    expect(app.lastFrame()).toContain('Permission Required');
    clock = 100 + 10 * TYPEAHEAD_GAP_MS;
    resolveFiles(['src/', 'victim']);
    for (let i = 0; i < 5; i++) await settle();

    expect(onDecide).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(router.holding).toBe(false);
    expect(app.lastFrame()).toContain('Permission Required');
    // the person answers deliberately: that is taken
    app.stdin.write('d');
    await settle();
    expect(onDecide.mock.calls).toEqual([['deny']]);
  });
});
