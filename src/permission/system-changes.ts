/**
 * Commands that change the system as a whole without naming a path: installing system packages,
 * starting and stopping services, users and passwords, kernel modules, firewall rules, mounts, the
 * clock. Like a write outside the project, such a command asks whatever the rules allow (`policy.ts`;
 * a `deny` rule still denies): a `"*": "allow"` given for the project's work does not reach the
 * machine's configuration.
 *
 * One row a program, the forms that change something (default: every form), and why. Pure.
 * Sources: apt-get(8), dpkg(1), dnf(8), pacman(8), apk(8), systemctl(1), service(8), useradd(8),
 * passwd(1), modprobe(8), iptables(8), nft(8), ufw(8), mount(8).
 */

/** One program that changes the system. */
export interface SystemChanger {
  program: string;
  /** what it changes, for the reason line */
  what: string;
  /** whether these arguments change something (default: always) */
  changes?: (args: readonly string[]) => boolean;
}

const PACKAGES = 'installs or removes system packages';
const SERVICES = 'starts, stops or configures system services';
const USERS = 'changes users, groups or passwords';
const KERNEL = 'loads or removes kernel modules';
const FIREWALL = 'changes firewall rules';

/** The first word that is not an option: a package manager's or service manager's verb. */
function verb(args: readonly string[]): string {
  return args.find((a) => !a.startsWith('-')) ?? '';
}

/** Verbs of package managers that only read (`apt list`, `dnf info`, `brew list`). */
const PACKAGE_QUERIES = new Set([
  'list',
  'show',
  'search',
  'info',
  'policy',
  'depends',
  'rdepends',
  'showpkg',
  'madison',
  'changelog',
  'help',
  'version',
  'provides',
  'repolist',
  'outdated',
  'deps',
  'desc',
  'home',
  'leaves',
  'config',
  'doctor',
]);

const changesPackages = (args: readonly string[]): boolean => {
  const v = verb(args);
  return v !== '' && !PACKAGE_QUERIES.has(v) && !['--version', '-v', '--help', '-h'].includes(args[0] ?? '');
};

const SYSTEMCTL_READS = new Set([
  'status',
  'show',
  'cat',
  'list-units',
  'list-unit-files',
  'list-timers',
  'list-sockets',
  'list-dependencies',
  'list-jobs',
  'is-active',
  'is-enabled',
  'is-failed',
  'is-system-running',
  'get-default',
  'help',
]);

export const SYSTEM_CHANGERS: readonly SystemChanger[] = [
  // system packages (language package managers that write in the project are judged as writers)
  { program: 'apt', what: PACKAGES, changes: changesPackages }, // apt install foo
  { program: 'apt-get', what: PACKAGES, changes: changesPackages },
  { program: 'aptitude', what: PACKAGES, changes: changesPackages },
  {
    program: 'dpkg',
    what: PACKAGES,
    changes: (a) =>
      a.some((x) => /^-[a-zA-Z]*[irPC]|^--(install|remove|purge|configure|unpack|set-selections)/.test(x)),
  },
  { program: 'dnf', what: PACKAGES, changes: changesPackages },
  { program: 'yum', what: PACKAGES, changes: changesPackages },
  { program: 'zypper', what: PACKAGES, changes: changesPackages },
  {
    program: 'rpm',
    what: PACKAGES,
    changes: (a) => a.some((x) => /^-[a-zA-Z]*[iUeF]|^--(install|upgrade|erase|freshen|import)/.test(x)),
  },
  {
    program: 'pacman',
    what: PACKAGES,
    changes: (a) => a.some((x) => /^-[SRUD]/.test(x) && !/^-[SQ][a-z]*[sil]/.test(x)),
  }, // -S, -R, -U; not -Ss/-Si/-Q
  { program: 'apk', what: PACKAGES, changes: changesPackages },
  { program: 'snap', what: PACKAGES, changes: changesPackages },
  { program: 'flatpak', what: PACKAGES, changes: changesPackages },
  { program: 'port', what: PACKAGES, changes: changesPackages },
  { program: 'emerge', what: PACKAGES },
  {
    program: 'nix-env',
    what: PACKAGES,
    changes: (a) => a.some((x) => /^-[a-zA-Z]*[ieu]|^--(install|uninstall|upgrade)/.test(x)),
  },
  {
    program: 'update-alternatives',
    what: 'changes which program a system name runs',
    changes: (a) => !a.some((x) => /^--(display|query|list|get-selections)$/.test(x)),
  },
  // services
  { program: 'systemctl', what: SERVICES, changes: (a) => !SYSTEMCTL_READS.has(verb(a)) && verb(a) !== '' },
  { program: 'service', what: SERVICES, changes: (a) => !a.includes('--status-all') && !a.includes('status') },
  { program: 'launchctl', what: SERVICES, changes: (a) => !['list', 'print', 'help', 'version'].includes(verb(a)) },
  { program: 'rc-service', what: SERVICES, changes: (a) => !a.includes('status') },
  { program: 'rc-update', what: SERVICES, changes: (a) => !['show', ''].includes(verb(a)) },
  { program: 'update-rc.d', what: SERVICES },
  { program: 'chkconfig', what: SERVICES, changes: (a) => a.length > 0 && !a.includes('--list') },
  // users and passwords
  ...[
    'useradd',
    'userdel',
    'usermod',
    'adduser',
    'deluser',
    'groupadd',
    'groupdel',
    'groupmod',
    'addgroup',
    'delgroup',
    'gpasswd',
    'chpasswd',
    'chsh',
    'chfn',
    'chage',
    'vipw',
    'vigr',
    'visudo',
    'newusers',
    'pwconv',
  ].map((program) => ({ program, what: USERS })),
  { program: 'passwd', what: USERS, changes: (a) => !a.includes('-S') && !a.includes('--status') },
  // kernel modules
  ...['modprobe', 'insmod', 'rmmod', 'depmod', 'kextload', 'kextunload', 'kmutil'].map((program) => ({
    program,
    what: KERNEL,
  })),
  // firewall
  ...[
    'iptables',
    'ip6tables',
    'iptables-restore',
    'ip6tables-restore',
    'nft',
    'ebtables',
    'arptables',
    'firewall-cmd',
    'pfctl',
  ].map((program) => ({
    program,
    what: FIREWALL,
    changes: (a: readonly string[]) =>
      !a.every(
        (x) =>
          /^-[LSnv]+$|^--(list|list-rules|numeric|verbose|state|list-all|get-[a-z-]+)$/.test(x) ||
          /^(list|-a)$/.test(x),
      ) || a.length === 0,
  })),
  { program: 'ufw', what: FIREWALL, changes: (a) => !['status', 'show', 'version', 'help'].includes(verb(a)) },
  // mounts, swap, the clock, the host's identity, power
  ...['mount', 'umount', 'swapon', 'swapoff'].map((program) => ({
    program,
    what: 'mounts or unmounts file systems',
    changes: (a: readonly string[]) => a.some((x) => !x.startsWith('-')) || a.some((x) => /^-[a-zA-Z]*a/.test(x)),
  })),
  ...['timedatectl', 'hostnamectl', 'localectl'].map((program) => ({
    program,
    what: "changes the system's clock, name or locale",
    changes: (a: readonly string[]) => /^set-|^(set|enable|disable)/.test(verb(a)),
  })),
  ...['shutdown', 'reboot', 'halt', 'poweroff'].map((program) => ({ program, what: 'stops or restarts the machine' })),
  // commands run later, outside this session, by the system
  {
    program: 'crontab',
    what: 'installs commands cron runs later',
    changes: (a) => !(a.includes('-l') && a.every((x) => x === '-l' || x === '-u' || !x.startsWith('-'))),
  },
  {
    program: 'at',
    what: 'schedules a command the system runs later',
    changes: (a) => !a.some((x) => /^-[a-zA-Z]*[lc]$/.test(x)),
  },
  { program: 'batch', what: 'schedules a command the system runs later' },
  { program: 'systemd-run', what: 'runs a command as a system service, outside this session' },
  // system settings
  {
    program: 'sysctl',
    what: 'changes kernel settings',
    changes: (a) => a.some((x) => x.includes('=') || /^-[a-zA-Z]*[wp]|^--(write|load|system)/.test(x)),
  },
  { program: 'date', what: "sets the system's clock", changes: (a) => a.some((x) => /^-[a-zA-Z]*s|^--set/.test(x)) },
  {
    program: 'hwclock',
    what: 'sets the hardware clock',
    changes: (a) => a.some((x) => /^-[a-zA-Z]*w|^--(set|systohc|adjust)/.test(x)),
  },
  {
    program: 'nmcli',
    what: 'changes network connections',
    changes: (a) => a.some((x) => /^(up|down|add|modify|delete|connect|disconnect|on|off)$/.test(x)),
  },
  {
    program: 'ifconfig',
    what: 'changes network interfaces',
    changes: (a) => a.filter((x) => !x.startsWith('-')).length > 1,
  },
  ...['ifup', 'ifdown', 'ldconfig', 'update-ca-certificates', 'setenforce', 'grub-install', 'update-grub'].map(
    (program) => ({ program, what: 'changes system settings' }),
  ),
  {
    program: 'route',
    what: 'changes the routing table',
    changes: (a) => a.some((x) => /^(add|del|delete|flush|change)$/.test(x)),
  },
];

/**
 * Why a command that runs as another user (`sudo make install`, `su -c ls`, `doas`, `pkexec`,
 * `run0`) asks whatever the rules allow, or undefined. `program` is the command recorded, `wrappers`
 * those it ran through. In the sandbox such a program cannot gain another user (it runs with no new
 * privileges), and outside it has more than the person's rights; so every form asks, listings such as
 * `sudo -l` too (they fail in the sandbox and may wait for a password).
 */
export function anotherUserChange(
  program: string,
  wrappers: readonly string[],
  text: string,
  privileged: ReadonlySet<string>,
): string | undefined {
  const through = [...wrappers, program].filter((w) => privileged.has(w));
  if (through.length === 0) return undefined;
  const line = (through.includes(program) ? text : `${through.join(' ')} ${text}`).replace(/\s+/g, ' ').trim();
  return `runs as another user (${[...new Set(through)].join(', ')}), with rights the sandbox cannot give and beyond the person's own: ${line.length > 80 ? `${line.slice(0, 77)}…` : line}`;
}

const byProgram = new Map(SYSTEM_CHANGERS.map((c) => [c.program, c]));

/** Why `program args…` changes the system as a whole, or undefined. */
export function systemChange(program: string, args: readonly string[], written: string): string | undefined {
  const row = byProgram.get(program);
  if (!row || (row.changes && !row.changes(args))) return undefined;
  const line = written.replace(/\s+/g, ' ').trim();
  return `${row.what}, outside the project: ${line.length > 80 ? `${line.slice(0, 77)}…` : line}`;
}
