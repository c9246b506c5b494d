/**
 * Workspace trust in the TUI: the project's own code (`src/app/project-code.ts`) waits for the trust
 * dialog when the project is not trusted; the app is built after the answer, with the code or
 * without it, so trusting starts it without a restart.
 */
import { decideTrust, type LoadedSources } from '../app/project-code.js';
import type { TrustedStart } from '../app/start.js';
import { isNestedRun } from '../permission/nested-run.js';
import { trustFilePath, trustProject } from '../permission/trust-store.js';
import type { ProjectCodeView } from '../tui/state/services.js';

/** The TUI's side of the decision. */
export interface TuiTrust {
  /** what the dialog lists; undefined when nothing waits for an answer */
  pending: ProjectCodeView[] | undefined;
  /** resolves once the start is decided: at once, or with the dialog's answer */
  start: Promise<TrustedStart>;
  /** the dialog's answer; resolves with the status line to show */
  answer(trust: boolean): Promise<string>;
}

/**
 * Decides for the project at `cwd`: trusted, nothing to run, or `--trust` → start with everything;
 * inside another opencode's command → start without the project's code, asking nothing; else wait
 * for {@link TuiTrust.answer}.
 */
export function tuiTrust(
  loaded: LoadedSources,
  cwd: string,
  env: NodeJS.ProcessEnv,
  trustFlag: boolean | undefined,
): TuiTrust {
  const decision = decideTrust(loaded, cwd, env, { trustFlag });
  const withCode: TrustedStart = { ...decision.full, held: false };
  if (decision.trusted) {
    return { pending: undefined, start: Promise.resolve(withCode), answer: async () => '' };
  }
  // started by another opencode's command (keys could come from the model, not a person): no dialog
  if (isNestedRun(env)) {
    const held: TrustedStart = { config: decision.config, lspServers: decision.lspServers, held: true };
    return { pending: undefined, start: Promise.resolve(held), answer: async () => '' };
  }
  let decide: (start: TrustedStart) => void = () => {};
  const start = new Promise<TrustedStart>((resolve) => (decide = resolve));
  const count = `${decision.items.length} item${decision.items.length === 1 ? '' : 's'}`;
  return {
    pending: decision.items.map(({ kind, name, detail }) => ({ kind, name, detail })),
    start,
    async answer(trust) {
      if (!trust) {
        decide({ config: decision.config, lspServers: decision.lspServers, held: true });
        return `Not trusted: this project's own code (${count}) is off for this session; \`opencode trust\` trusts it for the next start`;
      }
      decide(withCode);
      try {
        trustProject(cwd, env);
      } catch (err) {
        return `Trusted for this session only (${count} started): ${(err as Error).message}`;
      }
      return `Trusted: this project's own code (${count}) is starting; remembered in ${trustFilePath(env)}`;
    },
  };
}
