/**
 * The migrations, in order. Each is a TS module exporting its SQL so a bundler includes it; add a new
 * file `NNNN-name.ts` and one row here. A migration never changes once released: add another.
 */
import { sql as initial } from './0001-initial.js';
import { sql as messageChunks } from './0002-message-chunks.js';
import { sql as toolCalls } from './0003-tool-calls.js';
import { sql as sessionTuiUse } from './0004-session-tui-use.js';
import { sql as turnChanges } from './0005-turn-changes.js';
import { sql as toolCallDays } from './0006-tool-call-days.js';
import { sql as ranDurations } from './0007-ran-durations.js';
import { sql as turnChangeKinds } from './0008-turn-change-kinds.js';
import { sql as messageInsertTouch } from './0009-message-insert-touch.js';

/** One schema step. `version` is what `PRAGMA user_version` holds once it has run. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, `version` 1, 2, 3… in order. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'message-chunks', sql: messageChunks },
  { version: 3, name: 'tool-calls', sql: toolCalls },
  { version: 4, name: 'session-tui-use', sql: sessionTuiUse },
  { version: 5, name: 'turn-changes', sql: turnChanges },
  { version: 6, name: 'tool-call-days', sql: toolCallDays },
  { version: 7, name: 'ran-durations', sql: ranDurations },
  { version: 8, name: 'turn-change-kinds', sql: turnChangeKinds },
  { version: 9, name: 'message-insert-touch', sql: messageInsertTouch },
];
