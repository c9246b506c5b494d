/** Errors the stores throw besides SQLite's own (`SqliteError` from better-sqlite3, e.g. a constraint). */

/** A session or message the caller named does not exist (it was never created, or was deleted). */
export class NotFoundError extends Error {
  constructor(
    readonly kind: 'session' | 'message',
    readonly id: string,
  ) {
    super(`${kind} ${id} not found`);
    this.name = 'NotFoundError';
  }
}

/** The database was written by a newer opencode whose schema this one does not know. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly foundVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `${file}: schema version ${foundVersion} is newer than this opencode knows (${knownVersion}); upgrade opencode`,
    );
    this.name = 'SchemaTooNewError';
  }
}
