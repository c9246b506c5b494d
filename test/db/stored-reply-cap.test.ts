/**
 * One stored part is bounded: a reply past 4 MiB is kept as its head and tail around a
 * note, and that stored text is what later turns send to the provider. Through the real agent, the
 * Anthropic SDK and the loopback fake provider, into a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CUT_NOTE_MAX_CHARS, MAX_STORED_PART_CHARS, cutMiddle } from '../../src/db/part-cap.js';
import { messageText } from '../../src/message.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('cutMiddle', () => {
  const note = (cut: number, lines: number, total: number, head: number, tail: number) =>
    `\n\n[… ${cut} characters (${lines} line${lines === 1 ? '' : 's'}) cut here when this was stored: it had ${total} characters; the first ${head} and the last ${tail} are kept …]\n\n`;
  const x = (n: number) => 'x'.repeat(n);
  const cases: [string, string, string][] = [
    [
      'text within the limit and the room for a note is unchanged',
      x(4 + CUT_NOTE_MAX_CHARS),
      x(4 + CUT_NOTE_MAX_CHARS),
    ],
    [
      'head and tail of half the limit each, a note between',
      `aa${x(300)}\n${x(300)}cc`,
      `aa${note(601, 2, 605, 2, 2)}cc`,
    ],
    // 😀 is two UTF-16 units: a cut through it keeps the pair out whole
    ['a surrogate pair at the head edge is not split', `a😀${x(300)}gh`, `a${note(302, 1, 305, 1, 2)}gh`],
    ['a surrogate pair at the tail edge is not split', `ab${x(300)}😀h`, `ab${note(302, 1, 305, 2, 1)}h`],
  ];
  it.each(cases)('%s', (_, text, expected) => {
    expect(cutMiddle(text, 4)).toBe(expected);
  });

  it('changes nothing in a text it cut', () => {
    const cut = cutMiddle(x(5000), 1000);
    expect(cut.length).toBeGreaterThan(1000);
    expect(cutMiddle(cut, 1000)).toBe(cut);
  });
});

describe('a reply past the cap, through the agent', () => {
  it('is stored cut, and the next turn sends the stored text to the provider', async () => {
    const piece = `${'0123456789abcdef'.repeat(4095)}\n`.padEnd(65536, '.'); // 64 KiB
    const chunks = Array.from({ length: 80 }, () => piece); // 5 MiB in 64 KiB events
    const full = chunks.join('');
    h = await agentHarness([{ text: chunks }, { text: 'Short answer.' }]);
    const first = await h.agent.run(h.sessionId, 'Write a lot.');
    expect(first.reason).toBe('end_turn');

    const stored = h.db.messages.list(h.sessionId);
    const expected = cutMiddle(full);
    expect(expected.length).toBeLessThan(MAX_STORED_PART_CHARS + 300);
    expect(messageText(stored[1]!)).toBe(expected);
    // the run's own result is the stored message too
    expect(messageText(first.message!)).toBe(expected);
    const chunkRows = h.db.connection.prepare('SELECT count(*) AS n FROM message_chunks').get() as { n: number };
    expect(chunkRows.n).toBe(0);

    const second = await h.agent.run(h.sessionId, 'Thanks. Summarise it.');
    expect(second.reason).toBe('end_turn');
    const sent = h.fake.answered[1].messages as { role: string; content: { type: string; text?: string }[] }[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(
      sent[1]!.content
        .filter((c) => c.type === 'text')
        .map((c) => c.text)
        .join(''),
    ).toBe(expected);
  });

  it('a reply within the cap is stored exactly as it arrived', async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(4, '0')} ${'é漢🙂 '.repeat(4000)}\n`);
    h = await agentHarness([{ text: chunks }]);
    await h.agent.run(h.sessionId, 'Write some.');
    expect(messageText(h.db.messages.list(h.sessionId)[1]!)).toBe(chunks.join(''));
  });
});
