/**
 * How many leading words name a command, for the scope of "allow for session": a grant
 * for `git checkout -b feat` covers `git checkout *`, for `npm run test -- -u` covers `npm run test *`,
 * for `ls -la` covers `ls *`. The idea is sst/opencode's permission/arity.ts; the table is ours.
 *
 * Words are counted after the command name; flags do not count (`git --no-pager log` names
 * `git … log`) but stay in the prefix, so the scope matches the command as it is written again. A
 * flag that takes a value (`git -C sub status`) keeps its value with it ({@link VALUE_OPTIONS}).
 */

export interface CommandArity {
  /** the command and subcommand words this entry applies to */
  prefix: string;
  /** how many words (not counting flags) name the command */
  arity: number;
  /** a command and the session scope it gets */
  example: string;
}

/** Commands not listed take one word: `ls *`, `rm *`, `pytest *`, `tsc *`. */
export const DEFAULT_ARITY = 1;

export const COMMAND_ARITY: readonly CommandArity[] = [
  { prefix: 'git', arity: 2, example: 'git checkout -b feat → git checkout *' },
  { prefix: 'git config', arity: 3, example: 'git config user.name x → git config user.name *' },
  { prefix: 'git remote', arity: 3, example: 'git remote add origin url → git remote add *' },
  { prefix: 'git stash', arity: 3, example: 'git stash pop → git stash pop *' },
  { prefix: 'git submodule', arity: 3, example: 'git submodule update --init → git submodule update *' },
  { prefix: 'git worktree', arity: 3, example: 'git worktree add ../x → git worktree add *' },
  { prefix: 'git bisect', arity: 3, example: 'git bisect good → git bisect good *' },
  { prefix: 'git lfs', arity: 3, example: 'git lfs pull → git lfs pull *' },
  { prefix: 'git notes', arity: 3, example: 'git notes add -m x → git notes add *' },
  { prefix: 'npm', arity: 2, example: 'npm install zod → npm install *' },
  { prefix: 'npm run', arity: 3, example: 'npm run test -- -u → npm run test *' },
  { prefix: 'npm run-script', arity: 3, example: 'npm run-script build → npm run-script build *' },
  { prefix: 'npm exec', arity: 3, example: 'npm exec tsc → npm exec tsc *' },
  { prefix: 'npx', arity: 2, example: 'npx tsc --noEmit → npx tsc *' },
  { prefix: 'yarn', arity: 2, example: 'yarn add zod → yarn add *' },
  { prefix: 'yarn run', arity: 3, example: 'yarn run build → yarn run build *' },
  { prefix: 'yarn workspace', arity: 4, example: 'yarn workspace app build → yarn workspace app build *' },
  { prefix: 'pnpm', arity: 2, example: 'pnpm install → pnpm install *' },
  { prefix: 'pnpm run', arity: 3, example: 'pnpm run lint → pnpm run lint *' },
  { prefix: 'pnpm exec', arity: 3, example: 'pnpm exec vitest → pnpm exec vitest *' },
  { prefix: 'pnpm dlx', arity: 3, example: 'pnpm dlx create-vite → pnpm dlx create-vite *' },
  { prefix: 'bun', arity: 2, example: 'bun install → bun install *' },
  { prefix: 'bun run', arity: 3, example: 'bun run dev → bun run dev *' },
  { prefix: 'bun x', arity: 3, example: 'bun x tsc → bun x tsc *' },
  { prefix: 'bunx', arity: 2, example: 'bunx tsc → bunx tsc *' },
  { prefix: 'cargo', arity: 2, example: 'cargo build --release → cargo build *' },
  { prefix: 'rustup', arity: 2, example: 'rustup update → rustup update *' },
  { prefix: 'go', arity: 2, example: 'go test ./... → go test *' },
  { prefix: 'go mod', arity: 3, example: 'go mod tidy → go mod tidy *' },
  { prefix: 'go tool', arity: 3, example: 'go tool pprof x → go tool pprof *' },
  { prefix: 'docker', arity: 2, example: 'docker build . → docker build *' },
  { prefix: 'docker compose', arity: 3, example: 'docker compose up -d → docker compose up *' },
  { prefix: 'docker container', arity: 3, example: 'docker container ls → docker container ls *' },
  { prefix: 'docker image', arity: 3, example: 'docker image prune → docker image prune *' },
  { prefix: 'docker network', arity: 3, example: 'docker network create x → docker network create *' },
  { prefix: 'docker volume', arity: 3, example: 'docker volume rm x → docker volume rm *' },
  { prefix: 'docker system', arity: 3, example: 'docker system prune → docker system prune *' },
  { prefix: 'docker buildx', arity: 3, example: 'docker buildx build . → docker buildx build *' },
  { prefix: 'docker-compose', arity: 2, example: 'docker-compose up → docker-compose up *' },
  { prefix: 'podman', arity: 2, example: 'podman run x → podman run *' },
  { prefix: 'kubectl', arity: 2, example: 'kubectl get pods → kubectl get *' },
  { prefix: 'kubectl config', arity: 3, example: 'kubectl config use-context x → kubectl config use-context *' },
  { prefix: 'kubectl rollout', arity: 3, example: 'kubectl rollout restart x → kubectl rollout restart *' },
  { prefix: 'helm', arity: 2, example: 'helm install x → helm install *' },
  { prefix: 'terraform', arity: 2, example: 'terraform plan → terraform plan *' },
  { prefix: 'gh', arity: 3, example: 'gh pr create --fill → gh pr create *' },
  { prefix: 'aws', arity: 3, example: 'aws s3 cp a s3://b → aws s3 cp *' },
  { prefix: 'python', arity: 2, example: 'python scripts/gen.py → python scripts/gen.py * (python3, python3.12 too)' },
  { prefix: 'python -m', arity: 3, example: 'python -m pytest -x → python -m pytest *' },
  { prefix: 'pip', arity: 2, example: 'pip install x → pip install * (pip3 too)' },
  { prefix: 'uv', arity: 2, example: 'uv sync → uv sync *' },
  { prefix: 'uv run', arity: 3, example: 'uv run pytest → uv run pytest *' },
  { prefix: 'uv pip', arity: 3, example: 'uv pip install x → uv pip install *' },
  { prefix: 'poetry', arity: 2, example: 'poetry add x → poetry add *' },
  { prefix: 'poetry run', arity: 3, example: 'poetry run pytest → poetry run pytest *' },
  { prefix: 'node', arity: 2, example: 'node scripts/build.mjs → node scripts/build.mjs *' },
  { prefix: 'deno', arity: 2, example: 'deno fmt → deno fmt *' },
  { prefix: 'deno run', arity: 3, example: 'deno run -A main.ts → deno run -A main.ts *' },
  { prefix: 'ruby', arity: 2, example: 'ruby x.rb → ruby x.rb *' },
  {
    prefix: 'bash',
    arity: 2,
    example: 'bash scripts/ci.sh → bash scripts/ci.sh * (sh, zsh too; `bash -c` is seen through)',
  },
  { prefix: 'sh', arity: 2, example: 'sh install.sh → sh install.sh *' },
  { prefix: 'zsh', arity: 2, example: 'zsh x.zsh → zsh x.zsh *' },
  // make's targets are what differs between `make test` and `make deploy`, as subcommands are
  { prefix: 'make', arity: 2, example: 'make test → make test * (bare `make` grants only `make`)' },
  { prefix: 'just', arity: 2, example: 'just build → just build *' },
  { prefix: 'dotnet', arity: 2, example: 'dotnet test → dotnet test *' },
  { prefix: 'mvn', arity: 2, example: 'mvn package → mvn package *' },
  { prefix: 'gradle', arity: 2, example: 'gradle build → gradle build *' },
  { prefix: 'gradlew', arity: 2, example: './gradlew test → gradlew test *' },
  { prefix: 'brew', arity: 2, example: 'brew install jq → brew install *' },
  { prefix: 'apt', arity: 2, example: 'apt install jq → apt install *' },
  { prefix: 'apt-get', arity: 2, example: 'apt-get install jq → apt-get install *' },
  { prefix: 'systemctl', arity: 2, example: 'systemctl restart x → systemctl restart *' },
];

/** Options before the subcommand that take the next word as their value, per command. */
export const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'],
  // docker's own, and docker compose's (-f x.yml up)
  docker: [
    '-H',
    '--host',
    '-c',
    '--context',
    '--config',
    '-l',
    '--log-level',
    '-f',
    '--file',
    '-p',
    '--project-name',
    '--profile',
    '--env-file',
  ],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'],
  npm: ['--prefix', '-w', '--workspace'],
  pnpm: ['-C', '--dir', '--filter', '-F'],
  yarn: ['--cwd'],
  cargo: ['-C', '--config', '-Z'],
  go: ['-C'],
  make: ['-C', '--directory', '-f', '--file', '--makefile', '-j', '--jobs'],
  python: ['-W', '-X', '-c'],
};

// Maps, not the objects: a command may be named `constructor` or `__proto__`
const arities = new Map(COMMAND_ARITY.map((e) => [e.prefix, e.arity]));
const valueOptions = new Map(Object.entries(VALUE_OPTIONS));

/** `python3.12` is `python`, `pip3` is `pip`: one entry covers the versioned names. */
function commandKey(name: string): string {
  if (/^python[\d.]*$/.test(name)) return 'python';
  if (/^pip[\d.]*$/.test(name)) return 'pip';
  return name;
}

/**
 * The leading words that name the command `words` (name first, as written), and whether the command
 * had all the words its arity asks for (`npm run` alone has not: it names no script).
 */
export function commandPrefix(words: readonly string[]): { words: string[]; complete: boolean } {
  if (words.length === 0) return { words: [], complete: false };
  const root = commandKey(words[0]!);
  const prefix = [words[0]!];
  let key = root;
  let arity = arities.get(key) ?? DEFAULT_ARITY;
  let count = 1;
  for (let i = 1; i < words.length && count < arity; i++) {
    const word = words[i]!;
    prefix.push(word);
    const longer = arities.get(`${key} ${word}`);
    if (longer !== undefined) {
      key = `${key} ${word}`;
      arity = longer;
      count++;
    } else if (word.startsWith('-')) {
      if (valueOptions.get(root)?.includes(word) && i + 1 < words.length) prefix.push(words[++i]!);
    } else count++;
  }
  return { words: prefix, complete: count >= arity };
}
