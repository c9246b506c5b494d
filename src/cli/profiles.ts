/**
 * `opencode profiles`: the provider profiles of `.opencode.json` and what each resolves to:
 * the agents' models, each provider's base URL, and whether its key is there (never the key).
 * Nothing is started and nothing is asked of a provider.
 */
import { resolve } from 'node:path';
import { PROFILE_ENV, chooseProfileName } from '../config/profiles.js';
import { describeProfiles, formatProfiles } from './profile-summary.js';
import { loadConfigForCommand } from './load-config.js';

/** Options of {@link runProfiles}: the global `--cwd` and `--profile`, and `--json`. */
export interface ProfilesOptions {
  cwd?: string;
  profile?: string;
  json?: boolean;
}

/** Prints the profiles; returns the exit code (2 for a config problem or an unknown active profile). */
export async function runProfiles(opts: ProfilesOptions): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { config } = loaded;
  const active = chooseProfileName(opts.profile, process.env);
  const summaries = describeProfiles(config, process.env);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ active: active ?? null, profiles: summaries }, null, 2)}\n`);
  } else if (summaries.length === 0) {
    process.stdout.write(
      'No profiles. Add named sets of provider settings and agent models under "profiles" in .opencode.json (see docs/configuration.md, Profiles).\n',
    );
  } else {
    process.stdout.write(formatProfiles(summaries, active));
    const how = opts.profile !== undefined ? '--profile' : PROFILE_ENV;
    process.stdout.write(
      active
        ? `Active: ${active} (${how}).\n`
        : `No profile is active; choose one with --profile NAME or ${PROFILE_ENV}=NAME.\n`,
    );
  }
  if (active && !config.profiles[active]) {
    process.stderr.write(
      `opencode: unknown profile "${active}" (${opts.profile !== undefined ? '--profile' : PROFILE_ENV}); the config has: ${Object.keys(config.profiles).sort().join(', ') || 'none'}\n`,
    );
    return 2;
  }
  return 0;
}
