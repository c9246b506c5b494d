/**
 * File history as tools see it (reference §6): every write by a tool stores a version, so the UI can
 * show what a session changed. The SQLite implementation is `db/file-store.ts`; tools only know this.
 */
export interface FileHistory {
  /**
   * Records a write of `path` (absolute) in `sessionId`. `before` is the content before the write
   * (`null` when the file did not exist), `after` the content written (`''` for a deletion).
   * Never throws for a history problem that should not fail the write; a storage failure is logged.
   */
  recordWrite(sessionId: string, path: string, before: string | null, after: string): void;
}

/** A history that keeps nothing, for tests and sub-agents without storage. */
export const noFileHistory: FileHistory = { recordWrite() {} };
