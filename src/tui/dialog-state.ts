/**
 * Which dialog is open, as the TUI's root keeps it (App.tsx), the command list opens it (commands.ts)
 * and the dialog host shows it (DialogHost.tsx).
 */
import type { CustomCommand } from '../custom/commands.js';
import type { Session } from '../db/session-store.js';
import type { ProjectCodeView } from './state/services.js';

/** Which dialog is open. */
export type DialogState =
  | { kind: 'help' }
  /** `back`: the dialog it was opened over, shown again on "no" */
  | { kind: 'quit'; back?: DialogState }
  | { kind: 'sessions'; sessions: Session[] }
  | { kind: 'commands' }
  | { kind: 'models' }
  | { kind: 'profiles' }
  | { kind: 'themes' }
  | { kind: 'init' }
  /** `back`: the dialog it came in front of (the init question), shown after the answer */
  | { kind: 'trust'; items: ProjectCodeView[]; back?: DialogState }
  | { kind: 'filepicker' }
  | { kind: 'arguments'; command: CustomCommand };
