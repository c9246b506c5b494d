/**
 * The seccomp filter bubblewrap loads into the sandbox (`bwrap --seccomp FD`): `socket(AF_UNIX, …)`
 * fails with EPERM, so a sandboxed program cannot connect to a Unix socket of the host (an ssh-agent,
 * a tmux server, docker.sock, the D-Bus session bus, X11), which a read-only mount does not prevent.
 * `socketpair` stays allowed: its two ends reach nothing outside.
 *
 * The program is classic BPF, generated here (no libseccomp binding is needed for a dozen
 * instructions). Layouts are the kernel's: `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`
 * (linux/filter.h) and `struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }`
 * (linux/seccomp.h), little-endian on every architecture handled here. Syscall numbers are those of
 * the kernel's syscall tables (arch/x86/entry/syscalls, include/uapi/asm-generic/unistd.h).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One BPF instruction. */
export interface BpfInstruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const BPF_LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const BPF_JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const BPF_RET_K = 0x06; // BPF_RET | BPF_K

/** seccomp_data offsets */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

/** SECCOMP_RET_ALLOW, and SECCOMP_RET_ERRNO with EPERM (1) */
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_EPERM = 0x00050001;

const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;

/** The architectures the filter knows, with what it refuses on each. Others are let through unfiltered. */
export const SECCOMP_ARCHES: ReadonlyArray<{
  name: string;
  audit: number;
  socket: number;
  refused: readonly number[];
  reason: string;
}> = [
  // x32 syscalls (nr with bit 30) would reach socket under another number: all refused
  {
    name: 'x86_64',
    audit: 0xc000003e,
    socket: 41,
    refused: [425],
    reason: 'socket 41; io_uring_setup 425 could create sockets without the socket syscall',
  },
  {
    name: 'aarch64',
    audit: 0xc00000b7,
    socket: 198,
    refused: [425],
    reason: 'socket 198; io_uring_setup 425 as on x86_64',
  },
  // socketcall multiplexes every socket call behind one pointer the filter cannot read: refused whole
  {
    name: 'i386',
    audit: 0x40000003,
    socket: 359,
    refused: [102, 425],
    reason: 'socket 359; socketcall 102; io_uring_setup 425',
  },
];

type Target = number | string;
interface Step {
  label?: string;
  code: number;
  k: number;
  jt?: Target;
  jf?: Target;
}

/** The filter's instructions: check the architecture, then the syscall number, then socket's family. */
export function unixSocketFilter(): BpfInstruction[] {
  const steps: Step[] = [{ code: BPF_LD_W_ABS, k: ARCH }];
  SECCOMP_ARCHES.forEach((arch, i) => {
    const last = i === SECCOMP_ARCHES.length - 1;
    steps.push({ code: BPF_JEQ_K, k: arch.audit, jt: arch.name, jf: last ? 'allow' : 0 });
  });
  for (const arch of SECCOMP_ARCHES) {
    steps.push({ label: arch.name, code: BPF_LD_W_ABS, k: NR });
    if (arch.name === 'x86_64') steps.push({ code: BPF_JGE_K, k: X32_SYSCALL_BIT, jt: 'deny', jf: 0 });
    for (const nr of arch.refused) steps.push({ code: BPF_JEQ_K, k: nr, jt: 'deny', jf: 0 });
    steps.push({ code: BPF_JEQ_K, k: arch.socket, jt: 'family', jf: 'allow' });
  }
  steps.push({ label: 'family', code: BPF_LD_W_ABS, k: ARG0_LOW });
  steps.push({ code: BPF_JEQ_K, k: AF_UNIX, jt: 'deny', jf: 'allow' });
  steps.push({ label: 'allow', code: BPF_RET_K, k: SECCOMP_RET_ALLOW });
  steps.push({ label: 'deny', code: BPF_RET_K, k: SECCOMP_RET_EPERM });
  return assemble(steps);
}

/** Resolves labels to the forward offsets BPF jumps take (counted from the next instruction). */
function assemble(steps: Step[]): BpfInstruction[] {
  const at = new Map<string, number>();
  steps.forEach((s, i) => s.label && at.set(s.label, i));
  const offset = (from: number, target: Target | undefined): number => {
    if (target === undefined || typeof target === 'number') return target ?? 0;
    const to = at.get(target);
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp filter: bad jump to ${target}`);
    return to - from - 1;
  };
  return steps.map((s, i) => ({ code: s.code, jt: offset(i, s.jt), jf: offset(i, s.jf), k: s.k >>> 0 }));
}

/** The instructions as the kernel reads them: 8 bytes each, little-endian. */
export function encodeFilter(program: readonly BpfInstruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    bytes.writeUInt16LE(ins.code, i * 8);
    bytes.writeUInt8(ins.jt, i * 8 + 2);
    bytes.writeUInt8(ins.jf, i * 8 + 3);
    bytes.writeUInt32LE(ins.k, i * 8 + 4);
  });
  return bytes;
}

/** The inverse of {@link encodeFilter}. @throws when the length is not a multiple of 8 */
export function decodeFilter(bytes: Buffer): BpfInstruction[] {
  if (bytes.length % 8 !== 0) throw new Error(`a BPF program is a multiple of 8 bytes, got ${bytes.length}`);
  const program: BpfInstruction[] = [];
  for (let at = 0; at < bytes.length; at += 8) {
    program.push({
      code: bytes.readUInt16LE(at),
      jt: bytes.readUInt8(at + 2),
      jf: bytes.readUInt8(at + 3),
      k: bytes.readUInt32LE(at + 4),
    });
  }
  return program;
}

const written = new Map<string, string>();

/** The empty file written beside the filter ({@link seccompFilterFile}). */
export const EMPTY_FILE_NAME = 'empty';

/**
 * The path of the encoded filter, written once per process into a new private directory (0700, the
 * file 0400) under `parentDir`, with an empty file beside it ({@link EMPTY_FILE_NAME}); removed at exit. The caller picks a parent no sandboxed program can
 * write: the launcher reads this file outside the sandbox each time one starts.
 */
export function seccompFilterFile(parentDir: string): string {
  const known = written.get(parentDir);
  if (known) return known;
  const dir = mkdtempSync(join(parentDir, 'opencode-seccomp-'));
  const file = join(dir, 'unix-socket.bpf');
  writeFileSync(file, encodeFilter(unixSocketFilter()), { mode: 0o400 });
  // mounted over secret files: a regular file reads as empty, where a bind of /dev/null can't be opened (nodev)
  writeFileSync(join(dir, EMPTY_FILE_NAME), '', { mode: 0o444 });
  written.set(parentDir, file);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}
