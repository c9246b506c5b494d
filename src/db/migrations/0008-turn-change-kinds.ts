/**
 * Undo of everything `bash` changed: symbolic links, large files and names that are not
 * UTF-8, beside the bytes and modes of migration 0005.
 *
 * - `before_kind` / `after_kind`: NULL, a file whose bytes are in `*_bytes` (as before); `link`, the
 *   path itself is a symbolic link and `*_bytes` holds its raw target text (undo re-creates the link,
 *   never following it); `blob`, a file too large to copy into the database whose content is the git
 *   blob named in `*_bytes` (`"<id> <size>"`, ASCII) in the snapshot repository `blob_repo` (a git
 *   directory, which holds it already).
 * - `path_bytes`: the absolute path as raw bytes when it is not UTF-8; `path` then holds
 *   `raw:<hex of those bytes>`, which no absolute path can equal, so `UNIQUE (turn_id, path)` holds.
 */
export const sql = `
ALTER TABLE turn_changes ADD COLUMN path_bytes BLOB;
ALTER TABLE turn_changes ADD COLUMN before_kind TEXT CHECK (before_kind IN ('link', 'blob'));
ALTER TABLE turn_changes ADD COLUMN after_kind TEXT CHECK (after_kind IN ('link', 'blob'));
ALTER TABLE turn_changes ADD COLUMN blob_repo TEXT;
`;
