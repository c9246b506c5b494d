/**
 * Keeping the credentials we hold out of what the model sees and what is stored:
 * `env` and `printenv` are read-only commands that never ask, and without this their output would
 * carry the API keys to the database and the provider, which the README promises keys never reach.
 *
 * Two defences, both here as data and pure functions:
 * - {@link CREDENTIAL_ENV_NAMES}: the variables that hold a provider credential are removed from the
 *   environment of every process our tools start (the bash tool's shell), unless the config passes
 *   them through (`shell.passEnv`).
 * - {@link redactSecrets}: every exact value of a credential we hold (those variables, and keys
 *   given in the config) is replaced by `[redacted]` in every tool result before it is stored or
 *   sent. The agent's tool-call path calls it once for every result, whatever the tool's source.
 */

/** What a held secret is replaced with in tool output. */
export const REDACTED = '[redacted]';

/**
 * Environment variables that hold a credential opencode may use, each with what reads it. Provider
 * keys are the ones `provider/settings.ts` reads plus those the original reads for providers not
 * ported yet, so a key set for them is not handed out either.
 */
export const CREDENTIAL_ENV_NAMES: Readonly<Record<string, string>> = {
  ANTHROPIC_API_KEY: 'anthropic provider (settings.ts)',
  ANTHROPIC_AUTH_TOKEN: 'read by the Anthropic SDK itself',
  OPENAI_API_KEY: 'openai provider (settings.ts)',
  GROQ_API_KEY: 'groq provider (settings.ts)',
  OPENROUTER_API_KEY: 'openrouter provider (settings.ts)',
  XAI_API_KEY: 'xai provider (settings.ts)',
  GEMINI_API_KEY: 'gemini provider of the original OpenCode',
  AZURE_OPENAI_API_KEY: 'azure provider of the original OpenCode',
};

/** Values shorter than this are not treated as secrets: redacting `dummy` or `1` would garble output. */
export const MIN_SECRET_CHARS = 8;

/** Secrets registered for this process (see {@link rememberSecrets}); longest first. */
let secrets: string[] = [];

/**
 * Adds the values to the secrets {@link redactSecrets} hides, for the rest of the process. Empty,
 * whitespace-padded and short values ({@link MIN_SECRET_CHARS}) are ignored (a value is also
 * registered trimmed, as the providers use it). Process-wide on purpose: a secret one app holds is
 * hidden in every tool output of the process.
 */
export function rememberSecrets(values: Iterable<string | undefined>): void {
  const all = new Set(secrets);
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= MIN_SECRET_CHARS) all.add(trimmed);
  }
  // longest first, so a secret that contains another is replaced whole
  secrets = [...all].sort((a, b) => b.length - a.length);
  pieces = undefined;
}

/** Forgets every registered secret (tests). */
export function forgetSecrets(): void {
  secrets = [];
  pieces = undefined;
}

/**
 * The credential values found in `env` under {@link CREDENTIAL_ENV_NAMES}, and `configKeys`
 * (`providers.<id>.apiKey` of the config), for {@link rememberSecrets}.
 */
export function heldSecrets(
  env: Record<string, string | undefined>,
  configKeys: Iterable<string | undefined> = [],
): string[] {
  const values: string[] = [];
  for (const name of Object.keys(CREDENTIAL_ENV_NAMES)) {
    const value = env[name];
    if (value) values.push(value);
  }
  for (const key of configKeys) if (key) values.push(key);
  return values;
}

/**
 * Names of variables and headers whose values are credentials, by a whole word: `GITHUB_TOKEN`,
 * `DB_PASSWORD`, `OPENAI_API_KEY`, `Authorization`, `X-Api-Key`, `Cookie`; not `GIT_AUTHOR_NAME`.
 */
const SECRET_NAME =
  /(?:^|[_-])(?:api[_-]?key|key|token|secret|password|passwd|pat|credentials?|cookie|auth)(?:$|[_-])|^authorization$/i;

/**
 * The values in `entries` (an MCP server entry's `env` or `headers`) that are credentials by their
 * name ({@link SECRET_NAME}), with a `Bearer `/`Basic `/`token ` scheme word also taken off, so the
 * bare token is hidden too: `{ Authorization: "Bearer abc…" }` gives `Bearer abc…` and `abc…`.
 */
export function credentialValues(entries: Record<string, string> | undefined): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(entries ?? {})) {
    if (!SECRET_NAME.test(name) || !value) continue;
    values.push(value);
    const bare = /^(?:bearer|basic|token)\s+(\S+)$/i.exec(value.trim())?.[1];
    if (bare) values.push(bare);
  }
  return values;
}

/**
 * Pieces of a held secret at least this long are hidden too, wherever they are: output is cut in
 * many places (the middle of a long bash output, the tail shown live, view's and grep's long lines, a
 * custom tool's cap), and a cut through a key left all but its last characters in the text, where an
 * exact match no longer finds it. 16 is past the public prefixes keys share (`sk-ant-api03-` is 13),
 * so a piece only matches once it holds characters of the key's own.
 */
export const SECRET_PIECE_CHARS = 16;

/** Every {@link SECRET_PIECE_CHARS}-long piece of the registered secrets and their rolling hashes, rebuilt when they change. */
let pieces: { texts: Set<string>; hashes: Set<number> } | undefined;

const HASH_BASE = 31;
/** `HASH_BASE` to the power `SECRET_PIECE_CHARS - 1`, modulo 2^32: what the character leaving the window weighs */
const HASH_OUT = Array.from({ length: SECRET_PIECE_CHARS - 1 }).reduce<number>((h) => Math.imul(h, HASH_BASE), 1);

/** The polynomial hash of `text[from, from + SECRET_PIECE_CHARS)`, modulo 2^32. */
function windowHash(text: string, from: number): number {
  let h = 0;
  for (let i = from; i < from + SECRET_PIECE_CHARS; i++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i)) | 0;
  return h;
}

function secretPieces(): { texts: Set<string>; hashes: Set<number> } {
  if (pieces) return pieces;
  pieces = { texts: new Set(), hashes: new Set() };
  for (const secret of secrets) {
    for (let i = 0; i + SECRET_PIECE_CHARS <= secret.length; i++) {
      pieces.texts.add(secret.slice(i, i + SECRET_PIECE_CHARS));
      pieces.hashes.add(windowHash(secret, i));
    }
  }
  return pieces;
}

/**
 * `text` with every registered secret replaced by {@link REDACTED}, and every piece of one at least
 * {@link SECRET_PIECE_CHARS} long (a key cut by a truncation). Linear in the text's length: a rolling
 * hash of each window, its text compared only when the hash is a piece's.
 */
export function redactSecrets(text: string): string {
  if (secrets.length === 0) return text;
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  const { texts, hashes } = secretPieces();
  if (texts.size === 0 || out.length < SECRET_PIECE_CHARS) return out;
  const isPiece = (from: number, hash: number) =>
    hashes.has(hash) && texts.has(out.slice(from, from + SECRET_PIECE_CHARS));
  let result = '';
  let copiedTo = 0;
  let hash = windowHash(out, 0);
  for (let i = 0; i + SECRET_PIECE_CHARS <= out.length;) {
    if (!isPiece(i, hash)) {
      if (i + SECRET_PIECE_CHARS < out.length) {
        hash =
          (Math.imul(hash - Math.imul(out.charCodeAt(i), HASH_OUT), HASH_BASE) +
            out.charCodeAt(i + SECRET_PIECE_CHARS)) |
          0;
      }
      i++;
      continue;
    }
    // grow the piece while the next window is a piece too (overlapping windows of one secret)
    let end = i + SECRET_PIECE_CHARS;
    while (end < out.length && texts.has(out.slice(end - SECRET_PIECE_CHARS + 1, end + 1))) end++;
    result += out.slice(copiedTo, i) + REDACTED;
    copiedTo = end;
    i = end;
    if (i + SECRET_PIECE_CHARS <= out.length) hash = windowHash(out, i);
  }
  return copiedTo === 0 ? out : result + out.slice(copiedTo);
}

/**
 * `value` with {@link redactSecrets} applied to every string in it (objects and arrays copied, other
 * values kept): for a result's metadata, which is stored too (view's metadata holds the file's text).
 */
export function redactSecretsDeep<T>(value: T): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactSecretsDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactSecrets(k)] = redactSecretsDeep(v);
    return out as T;
  }
  return value;
}

/**
 * `env` without the credential variables (and without unset ones), except those named in
 * `passThrough` (config `shell.passEnv`): the environment for a process a tool starts (the bash
 * tool's shell, MCP stdio servers before their configured `env`).
 */
export function withoutCredentials(
  env: Record<string, string | undefined>,
  passThrough: readonly string[] = [],
): Record<string, string> {
  const keep = new Set(passThrough);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || (Object.hasOwn(CREDENTIAL_ENV_NAMES, name) && !keep.has(name))) continue;
    out[name] = value;
  }
  return out;
}
