/**
 * Runs the built `bin/opencode` as a child process with a clean environment (no real credentials,
 * HOME in a temp dir so no personal config is read).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'opencode');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const CREDENTIAL_VARS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'GROQ_API_KEY',
  'OPENROUTER_API_KEY',
  'XAI_API_KEY',
  'LOCAL_ENDPOINT',
  'XDG_CONFIG_HOME',
];

/** A process environment without provider credentials, with HOME in a fresh temp dir. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !CREDENTIAL_VARS.includes(k)) env[k] = v;
  env.HOME = mkdtempSync(join(tmpdir(), 'opencode-home-'));
  return { ...env, ...extra };
}

/** Runs `bin/opencode args…` in `cwd`; resolves when it exits. */
export function runCli(
  args: string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    stdin?: string;
    /** write stdin only after this many ms (a slow pipe) */
    stdinDelayMs?: number;
    onSpawn?: (pid: number) => void;
    timeoutMs?: number;
  },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: options.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (child.pid) options.onSpawn?.(child.pid);
    if (options.stdinDelayMs) setTimeout(() => child.stdin.end(options.stdin ?? ''), options.stdinDelayMs);
    else child.stdin.end(options.stdin ?? '');
  });
}
