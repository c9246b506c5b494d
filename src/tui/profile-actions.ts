/**
 * What choosing in the models dialog (ctrl+o) and the profiles dialog (alt+p) does, and what the
 * status line says about it. Kept out of DialogHost so the host only wires
 * dialogs to these.
 */
import { homedir } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import type { ChatStore } from './state/chat-store.js';
import type { ChatServices } from './state/services.js';

/** Switches the coder model and saves it (the project's file, or the global one); the outcome goes to the status line. */
export function chooseModel(
  services: ChatServices,
  store: ChatStore,
  modelId: string,
  options: { global: boolean },
): Promise<void> {
  return services.setModel(modelId, options).then(
    (saved) =>
      store.setStatus(
        `Model: ${services.agent.model().name} (saved to ${shownPath(saved.file, services.cwd)} as ${saved.keyPath})`,
        'info',
      ),
    (err: unknown) => store.setStatus(`Model not changed: ${(err as Error).message}`, 'error'),
  );
}

/**
 * Makes `name` (undefined: none) the active profile for the next request; the status line names it
 * and the model, or says what is missing (the active profile then stays).
 */
export function chooseProfile(services: ChatServices, store: ChatStore, name: string | undefined): Promise<void> {
  if (!services.profiles) {
    store.setStatus('No profiles: add them under "profiles" in .opencode.json', 'warn');
    return Promise.resolve();
  }
  return services.profiles.switch(name).then(
    (warnings) => {
      const what = `Profile: ${name ?? 'none'}, model ${services.agent.model().name}, from the next request`;
      store.setStatus(
        warnings.length > 0 ? `${what}; ${warnings.join('; ')}` : what,
        warnings.length > 0 ? 'warn' : 'info',
      );
    },
    (err: unknown) => store.setStatus(`Profile not switched: ${(err as Error).message}`, 'error'),
  );
}

/** `.opencode.json` inside the project, `~/…` under the home folder, else the absolute path. */
export function shownPath(file: string, cwd: string, home = homedir()): string {
  const inProject = relative(cwd, file);
  if (inProject && !inProject.startsWith('..') && !isAbsolute(inProject)) return inProject;
  const inHome = relative(home, file);
  if (inHome && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~/${inHome}`;
  return file;
}
