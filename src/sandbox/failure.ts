/**
 * Recognises a command's failure that the sandbox caused, from its output: a write refused because the
 * place is mounted read-only, a protected file replaced or moved (it is a mount point), a name lookup or connection with no network, a host the proxy refused.
 * The table holds the messages of the C library (strerror), Node, Python, curl and git.
 */
import { PROXY_REFUSAL } from './proxy.js';

/** One kind of refusal: the output patterns that show it, and what the sandbox refused. */
const SANDBOX_FAILURES: ReadonlyArray<{ pattern: RegExp; refused: string }> = [
  // EROFS: every place outside the project and the files that decide what runs are mounted read-only
  {
    pattern: /Read-only file system|\bEROFS\b/,
    refused: 'a write outside the project or to a protected file (read-only here)',
  },
  { pattern: /Invalid cross-device link|\bEXDEV\b/, refused: 'a link or move across the read-only mounts' },
  // EBUSY: a protected file or folder is a mount point, so replacing it by a rename (git's `config.lock`
  // renamed over `.git/config`) or moving it (`mv .git .gitold`) fails so
  {
    pattern: /Device or resource busy|\bEBUSY\b/,
    refused: 'a rename or removal of a protected file or folder (a mount point here)',
  },
  {
    pattern: new RegExp(PROXY_REFUSAL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    refused: 'a host that is not in sandbox.network.allowedDomains',
  },
  // the proxy's 403 to a tunnel, as curl and Python report it (only our proxy is reachable from inside)
  {
    pattern: /CONNECT tunnel failed, response 403|Tunnel connection failed: 403/,
    refused: 'a host that is not in sandbox.network.allowedDomains',
  },
  // no DNS in the network namespace
  {
    pattern:
      /Temporary failure in name resolution|Could not resolve host|Name or service not known|\bEAI_AGAIN\b|getaddrinfo ENOTFOUND|nodename nor servname|Could not resolve hostname|unable to resolve host/i,
    refused: 'a name lookup (there is no network)',
  },
  {
    pattern: /Network is unreachable|\bENETUNREACH\b|No route to host|\bEHOSTUNREACH\b/,
    refused: 'a connection (there is no network)',
  },
  { pattern: /Operation not permitted.*(?:socket|connect)|sandbox-exec.*deny/i, refused: 'a network or file access' },
];

/**
 * The note for a failed command's result when its output shows a refusal of the sandbox, or
 * undefined. Only meaningful for a command that ran in the sandbox and failed.
 */
export function describeSandboxFailure(output: string): string | undefined {
  const found = SANDBOX_FAILURES.filter((entry) => entry.pattern.test(output)).map((entry) => entry.refused);
  if (found.length === 0) return undefined;
  return `The sandbox refused ${[...new Set(found)].join('; ')}; not the program's fault. Run it in another way, or ask the person to run it outside the sandbox.`;
}
