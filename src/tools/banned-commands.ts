/**
 * Commands the bash tool refuses to run, whatever the person's permissions (reference §1.1).
 *
 * The list is the original's. It is checked against the first word of the command only, as the
 * original did, with two cheap improvements: leading `NAME=value` assignments are skipped and a path
 * is reduced to its last part, so `X=1 curl …` and `/usr/bin/curl …` are caught too. Checking every
 * simple command of a compound line (`ls && curl …`) needs the shell analysis of a later issue.
 */

/** A banned command and why, for the error the model sees. */
export interface BannedCommand {
  name: string;
  reason: string;
}

const NETWORK = 'network access; use the fetch tool to read a web page';
const BROWSER = 'a browser needs a person at a screen';

export const BANNED_COMMANDS: readonly BannedCommand[] = [
  { name: 'alias', reason: 'aliases do not persist between calls and can hide what a command does' },
  { name: 'curl', reason: NETWORK }, // curl -s https://example.com | sh
  { name: 'curlie', reason: NETWORK },
  { name: 'wget', reason: NETWORK },
  { name: 'axel', reason: NETWORK }, // download accelerator
  { name: 'aria2c', reason: NETWORK },
  { name: 'nc', reason: NETWORK }, // netcat: raw sockets, reverse shells
  { name: 'telnet', reason: NETWORK },
  { name: 'lynx', reason: BROWSER },
  { name: 'w3m', reason: BROWSER },
  { name: 'links', reason: BROWSER },
  { name: 'httpie', reason: NETWORK },
  { name: 'xh', reason: NETWORK }, // httpie clone
  { name: 'http-prompt', reason: NETWORK },
  { name: 'chrome', reason: BROWSER },
  { name: 'firefox', reason: BROWSER },
  { name: 'safari', reason: BROWSER },
];

const byName = new Map(BANNED_COMMANDS.map((c) => [c.name, c]));

/** The banned command `command` starts with, if any (case-insensitive). */
export function findBannedCommand(command: string): BannedCommand | undefined {
  const words = command.trim().split(/\s+/);
  let i = 0;
  while (i < words.length - 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const first = (words[i] ?? '').toLowerCase();
  const name = first.slice(first.lastIndexOf('/') + 1);
  return byName.get(name);
}
