/**
 * `opencode sessions import` writes a session back exactly as it was exported, also when one of its
 * messages is newer than the session's own time. That happened when the clock was set back after the
 * message (a usage update or a rename stamped the session with the earlier time, until the session's
 * writes took the later of the two), and such sessions are in databases and exports: since migration 0009
 * the insert trigger moves a session's `updated_at` up to each inserted message's `created_at`, so the
 * import moved the session to its newest message's time — a second export differed from the first, and
 * `sessions list` (newest first) put the session above ones it had been below.
 */
import { describe, expect, it } from 'vitest';
import { exportSession, importSession } from '../../src/session-io/transfer.js';
// setUpdatedAt: what a usage update or a rename wrote after the clock went back (before they kept the later time)
import { setSessionUpdatedAt as setUpdatedAt, tempDatabases } from './helpers.js';

const { open } = tempDatabases();

describe('importing a session whose message is newer than the session', () => {
  it("keeps the exported session time: the second export is the first, and the list order is the source's", () => {
    const source = open();
    const behind = source.sessions.create({ title: 'clock set back' });
    const message = source.messages.create({
      sessionId: behind.id,
      role: 'user',
      parts: [{ type: 'text', text: 'hi' }],
    });
    setUpdatedAt(source, behind.id, message.createdAt - 60_000);
    const ahead = source.sessions.create({ title: 'in between' });
    setUpdatedAt(source, ahead.id, message.createdAt - 30_000);
    const exported = exportSession(source, behind.id);
    expect(exported.sessions[0]!.updatedAt).toBe(message.createdAt - 60_000);

    const target = open();
    importSession(target, exportSession(source, ahead.id));
    const imported = importSession(target, exported);

    expect(imported.renamed).toBe(false);
    expect(imported.session.updatedAt).toBe(message.createdAt - 60_000);
    expect(imported.session.messageCount).toBe(1);
    expect(JSON.stringify(exportSession(target, behind.id))).toBe(JSON.stringify(exported));
    expect(target.sessions.listAll().map((s) => s.id)).toEqual([ahead.id, behind.id]);
    expect(source.sessions.listAll().map((s) => s.id)).toEqual([ahead.id, behind.id]);
  });
});
