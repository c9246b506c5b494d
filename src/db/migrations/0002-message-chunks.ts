/**
 * Streamed text stored as it arrives: while a large reply streams, each batched write adds
 * only what arrived since the last one, as rows here, instead of rewriting the whole message (a 40 MB
 * reply rewrote ~20 MB on average per write and grew the WAL to gigabytes). When the message finishes,
 * its parts are written whole into `messages.parts` and its rows here are deleted. Readers apply the
 * rows of a message still streaming (or cut off by a crash) in `seq` order:
 * - `append`: `body` is appended to the text field of part `part_index` (text, thinking, tool input);
 * - `part`: `body` is the JSON of part `part_index`, which replaces it, or is appended when the index is
 *   the number of parts so far.
 */
export const sql = `
CREATE TABLE message_chunks (
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq > 0),
  part_index INTEGER NOT NULL CHECK (part_index >= 0),
  kind TEXT NOT NULL CHECK (kind IN ('append', 'part')),
  body TEXT NOT NULL,
  PRIMARY KEY (message_id, seq)
) STRICT;
`;
