/**
 * What npm and pip write besides the project, for `write-targets.ts`: npm's folder
 * options (`--prefix`, `--cache`, `--logs-dir`, `--userconfig`, …), its global folder (`-g`) and
 * `~/.npmrc` (`npm config set`); pip's `--target`, `--prefix`, `--user` (`~/.local`), `-d`, `--log`.
 * Sources: npm's config documentation, `pip install --help`. Pure.
 */
import { attachedWord, resolveLongOption } from './getopt.js';
import { globalInstallPlace } from './global-installs.js';
import type { ShellWord } from './shell-parse.js';
import {
  literalWord as word,
  unknownPlace,
  type CommandWrites,
  type WriterContext,
  type WriteTarget,
} from './write-target-types.js';

/** npm options whose value is a place npm writes (npm's config docs); abbreviations count, as nopt expands them. */
const NPM_WRITE_OPTIONS = ['cache', 'logs-dir', 'userconfig', 'globalconfig', 'pack-destination', 'prefix'];
const NPM_CONFIG_WRITES = ['set', 'delete', 'edit', 'fix'];

export function npmTargets(words: readonly ShellWord[], context: WriterContext): CommandWrites {
  const targets: WriteTarget[] = [];
  const directory: ShellWord[] = [];
  let global = false;
  let location: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.value === '--') break;
    if (w.value === '-g' || w.value === '--global') global = true;
    else if (w.value === '-C' && words[i + 1]) directory.push(words[++i]!);
    else if (w.value.startsWith('--')) {
      const eq = w.value.indexOf('=');
      const name = (eq === -1 ? w.value : w.value.slice(0, eq)).slice(2);
      const option =
        name.length >= 3
          ? NPM_WRITE_OPTIONS.find((o) => o.startsWith(name))
          : NPM_WRITE_OPTIONS.find((o) => o === name);
      const value = eq !== -1 ? attachedWord(w, w.value.slice(eq + 1)) : words[i + 1];
      if (name === 'location') {
        location = value?.value;
        if (eq === -1) i++;
      }
      if (option && value) {
        if (eq === -1) i++;
        if (option === 'prefix') directory.push(value);
        else targets.push({ word: value, via: 'other' });
      }
    } else if (!w.value.startsWith('-')) positionals.push(w.value);
  }
  if (location === 'global') global = true;
  const [command, action] = positionals;
  const configWrite = (command === 'config' || command === 'c') && NPM_CONFIG_WRITES.includes(action ?? '');
  if (configWrite || command === 'set' || command === 'login' || command === 'adduser' || command === 'logout') {
    if (global) targets.push(unknownPlace("(npm's global config file)", { outside: true }));
    else if (location !== 'project') targets.push({ word: word(`${context.home}/.npmrc`), via: 'other' });
  } else if (
    global &&
    command !== undefined &&
    ![
      'ls',
      'list',
      'll',
      'la',
      'root',
      'prefix',
      'config',
      'get',
      'view',
      'outdated',
      'explain',
      'why',
      'help',
    ].includes(command)
  ) {
    targets.push(unknownPlace("(npm's global package folder)", { outside: true }));
  }
  return { onlyTargets: false, targets, ...(directory.length && { directory }) };
}

const PIP_WRITE_OPTIONS = [
  'target',
  'prefix',
  'root',
  'src',
  'dest',
  'wheel-dir',
  'log',
  'log-file',
  'cache-dir',
  'build',
  'report',
];
/** pip's other long options that share a prefix with those, so that abbreviations resolve as optparse does */
const PIP_OTHER_OPTIONS = [
  'pre',
  'prefer-binary',
  'progress-bar',
  'proxy',
  'python',
  'python-version',
  'platform',
  'require-hashes',
  'requirement',
  'retries',
  'root-user-action',
  'src',
  'debug',
  'disable-pip-version-check',
  'target',
  'trusted-host',
  'timeout',
  'log-file',
  'local',
  'cert',
  'client-cert',
  'constraint',
  'config-settings',
  'compile',
  'dry-run',
  'editable',
  'exists-action',
  'extra-index-url',
  'find-links',
  'force-reinstall',
  'global-option',
  'ignore-installed',
  'ignore-requires-python',
  'implementation',
  'index-url',
  'isolated',
  'keyring-provider',
  'no-binary',
  'no-build-isolation',
  'no-cache-dir',
  'no-color',
  'no-compile',
  'no-deps',
  'no-index',
  'no-input',
  'no-python-version-warning',
  'no-warn-conflicts',
  'no-warn-script-location',
  'only-binary',
  'quiet',
  'upgrade',
  'upgrade-strategy',
  'use-feature',
  'use-deprecated',
  'user',
  'verbose',
  'abi',
  'check-build-dependencies',
  'break-system-packages',
  'require-virtualenv',
  'python-version',
  'resume-retries',
];

export function pipTargets(words: readonly ShellWord[], context: WriterContext): CommandWrites {
  const targets: WriteTarget[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.value === '--') break;
    if (w.value === '--user') targets.push({ word: word(`${context.home}/.local`), via: 'other' });
    else if (['-t', '-d', '-w'].includes(w.value) && words[i + 1]) targets.push({ word: words[++i]!, via: 'other' });
    else if (w.value.startsWith('--')) {
      const eq = w.value.indexOf('=');
      const name = (eq === -1 ? w.value : w.value.slice(0, eq)).slice(2);
      // optparse takes any unique prefix of a long option: --targ is --target
      const resolved = resolveLongOption(name, [...new Set([...PIP_WRITE_OPTIONS, ...PIP_OTHER_OPTIONS])]);
      if (resolved && resolved !== 'ambiguous' && PIP_WRITE_OPTIONS.includes(resolved)) {
        const value = eq !== -1 ? attachedWord(w, w.value.slice(eq + 1)) : words[++i];
        if (value) targets.push({ word: value, via: 'other' });
      }
    }
  }
  return { onlyTargets: false, targets };
}

/**
 * Commands that install into or configure a folder of the person's, outside the project, without
 * naming it (each with where it writes, by the tool's documented default). They ask every time, as
 * `npm install -g` does.
 */
export const HOME_WRITERS: readonly { command: string; place: string; example: string }[] = [
  { command: 'go install', place: '$GOBIN or ~/go/bin', example: 'go install golang.org/x/tools/gopls@latest' },
  { command: 'go get', place: 'the module cache, ~/go/pkg/mod', example: 'go get example.com/x' },
  { command: 'cargo install', place: '~/.cargo/bin', example: 'cargo install ripgrep' },
  { command: 'gem install', place: 'the gem folder', example: 'gem install rails' },
  { command: 'pipx install', place: '~/.local/pipx and ~/.local/bin', example: 'pipx install black' },
  { command: 'pip config', place: "pip's configuration file", example: 'pip config set global.index-url http://x' },
  { command: 'yarn config', place: '~/.yarnrc', example: 'yarn config set registry http://x' },
  { command: 'yarn global', place: "yarn's global folder", example: 'yarn global add typescript' },
  { command: 'pnpm config', place: "pnpm's configuration file", example: 'pnpm config set registry http://x' },
  { command: 'rustup', place: '~/.rustup', example: 'rustup default nightly' },
  { command: 'brew', place: "Homebrew's prefix", example: 'brew install jq' },
  { command: 'corepack', place: 'the folder of node', example: 'corepack enable' },
];

const HOME_WRITER_READS = new Set([
  'list',
  'show',
  'get',
  'search',
  'info',
  'help',
  '--version',
  '-V',
  '--help',
  'which',
  'check',
  'doctor',
  'config',
]);

/** Where `name words…` writes in the person's folders (`go install x` → ~/go/bin), or undefined. */
export function homeWriterPlace(name: string, words: readonly ShellWord[]): string | undefined {
  const global = globalInstallPlace(name, words);
  if (global) return global;
  const first = words.find((w) => !w.value.startsWith('-'))?.value;
  const second = words.filter((w) => !w.value.startsWith('-'))[1]?.value;
  const row =
    HOME_WRITERS.find((r) => r.command === `${name} ${first}`) ?? HOME_WRITERS.find((r) => r.command === name);
  if (!row) return undefined;
  // the listing forms write nothing: `rustup show`, `brew list`, `pip config list`, `yarn config get`
  const action = row.command === name ? first : second;
  if (action === undefined || HOME_WRITER_READS.has(action)) return undefined;
  if (row.command === 'pnpm config' && action === 'set' && words.some((w) => w.value === '--location=project'))
    return undefined;
  return row.place;
}
