/**
 * When the editor's completion lists open and stay open: the `@` file completion and the `/`
 * command list. Pure. Text that arrives in one read (type-ahead, a fast typist, a paste) opens
 * them as the same text typed key by key does (`@src` in one read opened nothing).
 */
import type { EditorState } from './editor-state.js';

/** An open completion: which list, and where its `@` or `/` is in the text. */
export interface Completion {
  kind: 'file' | 'command';
  /** index of the `@` (file) or the `/` (command: always 0) */
  at: number;
}

/**
 * The completion an insertion opens, from the state before it to the state after (the cursor at
 * the end of what was inserted), or undefined.
 * - command (only when `commands`): the text is now `/` and a word, and the `/` came in this insertion;
 * - file: the word that ends at the cursor starts with `@` (at the start or after whitespace),
 *   and that `@` came in this insertion — an `@` typed earlier whose list was closed stays closed.
 * Text with a line break opens nothing (a multi-line paste is not a name being typed).
 *
 * | before | inserted | opens |
 * |---|---|---|
 * | `` | `@` | file at 0 |
 * | `look at ` | `@src` | file at 8, query `src` |
 * | `` | `look at @src` | file at 8 |
 * | `me` | `@host` | nothing (`me@host` is a word) |
 * | `` | `/mo` | command |
 * | `say ` | `/mo` | nothing (not at the start) |
 * | `` | `@a\nb` | nothing |
 */
export function completionOpenedBy(before: EditorState, after: EditorState, commands: boolean): Completion | undefined {
  const start = before.cursor;
  const end = after.cursor;
  if (end <= start || after.text.length <= before.text.length) return undefined;
  if (/[\r\n]/.test(after.text.slice(start, end))) return undefined;
  if (commands && start === 0 && /^\/\S*$/.test(after.text)) return { kind: 'command', at: 0 };
  const wordStart = lastWhitespace(after.text, end) + 1;
  if (wordStart >= start && after.text[wordStart] === '@') return { kind: 'file', at: wordStart };
  return undefined;
}

/**
 * Whether `completion` is still open in `state`: a file completion while the cursor is after its
 * `@` with no whitespace between; the command list while the text is `/` and one word.
 */
export function completionStillOpen(completion: Completion, state: EditorState): boolean {
  const { text, cursor } = state;
  if (completion.kind === 'command') return completion.at === 0 && cursor >= 1 && /^\/\S*$/.test(text);
  const at = completion.at;
  return text[at] === '@' && cursor > at && !/\s/.test(text.slice(at + 1, cursor));
}

/** The query a completion filters by: what lies between its `@` or `/` and the cursor. */
export function completionQuery(completion: Completion, state: EditorState): string {
  return state.text.slice(completion.at + 1, state.cursor);
}

/** Index of the last whitespace character before `end`, or -1. */
function lastWhitespace(text: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) if (/\s/.test(text[i]!)) return i;
  return -1;
}
