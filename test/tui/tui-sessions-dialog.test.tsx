/**
 * The sessions dialog in the whole TUI (ctrl+s) against a real app: `r` renames a session
 * in the database and the open session's title follows; `d` then `y` deletes one (the open one: a new
 * chat opens), `n` keeps it; a session another running process has open is not deleted, and the
 * question says which process.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

const CTRL_S = '\u0013';

async function mount() {
  t = await tui.start([]);
  const older = t.app.db.sessions.create({ title: 'Older work' });
  const open = t.app.db.sessions.create({ title: 'Open work' });
  t.app.db.sessions.addUsage(open.id, { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }, 0.5);
  const { store, waitFor, type } = tui.render({ sessionId: open.id });
  return { store, waitFor, type, older, open, db: t.app.db };
}

describe('the sessions dialog in the TUI', () => {
  it('renames the open session: stored, and the open session shows the new title', async () => {
    const { store, waitFor, type, open, db } = await mount();
    await type(CTRL_S);
    const list = await waitFor((f) => f.includes('Switch Session'));
    expect(list).toMatch(/✓ Open work +0 msgs · \$0\.50 · just now/);
    await type('r');
    // keys typed before the rename field is drawn would go to the list (a loaded run lost some)
    await waitFor((f) => f.includes('Rename Session'));
    await type(...' (done)'.split(''), '\r');
    await waitFor((f) => f.includes('Open work (done)') && !f.includes('Rename Session'));
    expect(db.sessions.get(open.id)?.title).toBe('Open work (done)');
    expect(store.getSnapshot().session?.title).toBe('Open work (done)');
  });

  it('deletes only after y; deleting the open session opens a new chat', async () => {
    const { store, waitFor, type, older, open, db } = await mount();
    await type(CTRL_S);
    await waitFor((f) => f.includes('Switch Session'));
    await type('d');
    await waitFor((f) => f.includes('Delete Session'));
    await type('n');
    await waitFor((f) => f.includes('Switch Session'));
    expect(db.sessions.get(open.id)).toBeDefined();
    await type('d', 'y');
    await waitFor((f) => f.includes('Switch Session') && !f.includes('Open work'));
    expect(db.sessions.get(open.id)).toBeUndefined();
    expect(db.sessions.get(older.id)?.title).toBe('Older work');
    expect(store.getSnapshot().session).toBeUndefined();
  });

  it('refuses to delete a session another process has open, naming it; the session stays', async () => {
    const { waitFor, type, older, db } = await mount();
    // another process (a second TUI, say) holds "Older work" through the same marks
    const holderScript =
      `import { holdSession } from ${JSON.stringify(join(import.meta.dirname, '../../src/db/session-in-use.ts'))};\n` +
      `holdSession(${JSON.stringify(join(t!.dir, '.opencode'))}, ${JSON.stringify(older.id)}, 'tui');\nconsole.log('held');\nsetInterval(() => {}, 1000);\n`;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', holderScript], {
      cwd: join(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve) => holder.stdout.on('data', () => resolve()));
      await type(CTRL_S);
      await waitFor((f) => f.includes('Switch Session'));
      await type('\u001b[B'); // ↓ to "Older work"
      await type('d');
      await waitFor((f) => f.includes('Delete Session'));
      await type('y');
      const frame = await waitFor((f) => f.includes('in use by'));
      const text = frame
        .split('\n')
        .map((row) => row.replace(/^\s*│ ?|\s*│\s*$/g, '').trim())
        .join(' ')
        .replace(/\s+/g, ' ');
      expect(text).toMatch(
        new RegExp(
          `in use by the TUI \\(pid ${holder.pid}, since [\\d-]+ [\\d:]+\\): quit it or open another session there first`,
        ),
      );
      expect(db.sessions.get(older.id)?.title).toBe('Older work');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
