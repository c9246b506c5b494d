/**
 * The Seatbelt profile (macOS `sandbox-exec -p PROFILE`) for a {@link SandboxPolicy}. Pure: the
 * tests check the text. The language is Apple's SBPL (a Scheme dialect, as used by Chrome, codex and
 * `@anthropic-ai/sandbox-runtime`); rules are matched last-to-first, so denials follow the allows they
 * narrow. Not run on a Mac by our tests: there is none in CI.
 */
import type { SandboxLevel, SandboxPolicy } from './types.js';

/** Always allowed, one reason each. */
const BASE_RULES: ReadonlyArray<{ rule: string; reason: string }> = [
  { rule: '(version 1)', reason: 'the profile language version' },
  { rule: '(deny default)', reason: 'everything not allowed below is refused' },
  { rule: '(allow process-exec)', reason: 'commands start programs' },
  { rule: '(allow process-fork)', reason: 'shells fork' },
  { rule: '(allow signal (target same-sandbox))', reason: 'a command may signal its own processes, not ours' },
  {
    rule: '(allow process-info* (target same-sandbox))',
    reason: "no reading other processes' arguments and environment",
  },
  { rule: '(allow sysctl-read)', reason: 'programs read the CPU count and OS version' },
  { rule: '(allow mach-lookup)', reason: 'system services (the DNS resolver is further limited by the network rules)' },
  { rule: '(allow ipc-posix-shm)', reason: 'shared memory some runtimes use' },
  { rule: '(allow file-read*)', reason: 'reads are free except the secret places below' },
  { rule: '(allow file-ioctl)', reason: 'terminals and pipes' },
  {
    rule: '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/"))',
    reason: 'the standard descriptors',
  },
];

/** Quotes a path as an SBPL string. */
export function sbplString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * The profile text. `proxyPort`: the allowed-domains proxy's loopback port (`strict` level only).
 */
export function seatbeltProfile(
  policy: SandboxPolicy,
  level: Exclude<SandboxLevel, 'none'>,
  options: { extraWritable?: readonly string[]; proxyPort?: number } = {},
): string {
  const lines = BASE_RULES.map((r) => r.rule);
  const writable = [policy.projectDir, ...policy.writable, ...(options.extraWritable ?? [])];
  lines.push(`(allow file-write* ${writable.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  if (policy.protectedPaths.length > 0) {
    // a protected path that does not exist yet is covered too: Seatbelt matches names, not mounts
    lines.push(`(deny file-write* ${policy.protectedPaths.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  }
  if (policy.secretPaths.length > 0) {
    lines.push(`(deny file-read* ${policy.secretPaths.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  }
  if (level === 'network') {
    lines.push('(allow network*)');
  } else {
    lines.push('(allow network* (local unix-socket))');
    if (options.proxyPort !== undefined)
      lines.push(`(allow network-outbound (remote ip "localhost:${options.proxyPort}"))`);
  }
  return `${lines.join('\n')}\n`;
}
