/**
 * Shows the one dialog that is open (the quit question first, then a permission request: it blocks
 * the agent) in the message area, and carries out what the person chose through the core's functions.
 *
 * ctrl+c (`app.quit`) in any dialog opens the quit question over it (no key press is
 * silently lost); "no" goes back to the dialog it came from, and a pending permission request shows
 * again, unanswered.
 */
import { Box } from 'ink';
import React, { useEffect, useState } from 'react';
import type { ImagePart } from '../message.js';
import type { PermissionRequest } from '../permission/types.js';
import { initPrompt, type CommandItem } from './commands.js';
import type { DialogState } from './dialog-state.js';
import { fillPlaceholders } from '../custom/commands.js';
import { ArgumentsDialog } from './dialogs/ArgumentsDialog.js';
import { CommandsDialog } from './dialogs/CommandsDialog.js';
import { FilePickerDialog } from './dialogs/FilePickerDialog.js';
import { HelpDialog } from './dialogs/HelpDialog.js';
import { InitDialog } from './dialogs/InitDialog.js';
import { ModelsDialog, type ModelProvider } from './dialogs/ModelsDialog.js';
import { ProfilesDialog } from './dialogs/ProfilesDialog.js';
import { chooseModel, chooseProfile } from './profile-actions.js';
import { PermissionDialog } from './dialogs/PermissionDialog.js';
import { QuitDialog } from './dialogs/QuitDialog.js';
import { SessionsDialog } from './dialogs/SessionsDialog.js';
import { ThemesDialog } from './dialogs/ThemesDialog.js';
import { TrustDialog } from './dialogs/TrustDialog.js';
import { loadAttachment, MAX_ATTACHMENTS } from './input/attachments.js';
import { LAYER, useKeys } from './input/InputProvider.js';
import { useKeymap } from './keymap-context.js';
import type { ChatStore } from './state/chat-store.js';
import type { ChatServices } from './state/services.js';
import type { Theme } from './theme.js';
import { listThemes, themeSourceLabel } from './theme-loader.js';

/** A list loaded for one opening of a dialog (`for`: that opening's dialog state). */
interface LoadedFor<T> {
  list?: T;
  for?: DialogState;
}

/** Above every dialog: where ctrl+c is caught before the open dialog takes it. */
export const QUIT_KEY_LAYER = LAYER.dialog + 1;

export interface DialogHostProps {
  services: ChatServices;
  store: ChatStore;
  permission?: PermissionRequest;
  /** further permission requests waiting */
  queued: number;
  dialog?: DialogState;
  area: { width: number; height: number };
  theme: Theme;
  sessionId?: string;
  busy: boolean;
  onClose(): void;
  onOpen(dialog: DialogState): void;
  onQuit(): void;
  /** the theme `name` was chosen: applies it, returning the problem line when its file was broken */
  onTheme(name: string): string | undefined;
  onAttach(image: ImagePart): void;
  attachmentCount: number;
  /** the commands of the ctrl+k dialog (the same as the `/` list: useCommands.ts) */
  commands: { list(): Promise<CommandItem[]>; known(): CommandItem[]; run(id: string): void };
  /** sends a prompt; false when refused (busy) */
  send(text: string, images: ImagePart[]): boolean;
}

export function DialogHost(props: DialogHostProps) {
  const { services, store, permission, dialog, area, onClose } = props;
  // Lists loaded anew at each opening (a profile switch changes the providers; a new file in
  // `commands/` adds a command), each kept with the opening it was loaded for (the dialog state is a
  // new object at each opening). Until this opening's list arrives the dialog shows the last one
  // known ("Loading models…" on the first opening) and its keys wait for the list (ListDialog's
  // `loading`): ctrl+o ↓ enter in one read picks the second model of the list loaded.
  const [providers, setProviders] = useState<LoadedFor<ModelProvider[]>>({});
  const [commands, setCommands] = useState<LoadedFor<CommandItem[]>>({});
  const keymap = useKeymap();

  useKeys(
    (key) => {
      if (dialog?.kind === 'quit' || !keymap.matches(key, 'app.quit')) return false;
      props.onOpen({ kind: 'quit', ...(dialog && { back: dialog }) });
      return true;
    },
    { layer: QUIT_KEY_LAYER },
  );

  useEffect(() => {
    const opening = dialog;
    let live = true;
    if (opening?.kind === 'models') {
      services.models().then(
        (list) => live && setProviders({ list, for: opening }),
        (err: unknown) => {
          // the list as last known (none: an empty one), so the keys held for it go on
          if (live) setProviders((known) => ({ list: known.list ?? [], for: opening }));
          store.setStatus(`Cannot list models: ${(err as Error).message}`, 'error');
        },
      );
    }
    if (opening?.kind === 'commands') {
      // list() reports its own failures and gives the built-ins then
      void props.commands.list().then((list) => live && setCommands({ list, for: opening }));
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a list is asked for once, when its dialog opens
  }, [dialog]);

  const sendPrompt = (text: string) => {
    onClose();
    props.send(text, []);
  };

  let body: React.ReactNode = null;
  if (dialog?.kind === 'quit') {
    const back = dialog.back;
    body = <QuitDialog onQuit={props.onQuit} onClose={back ? () => props.onOpen(back) : onClose} />;
  } else if (permission) {
    body = (
      <PermissionDialog
        key={permission.id}
        request={permission}
        queued={props.queued}
        cwd={services.cwd}
        onDecide={(decision) => store.answerPermission(permission.id, decision)}
        {...area}
      />
    );
  } else if (dialog?.kind === 'help') {
    body = <HelpDialog onClose={onClose} {...area} />;
  } else if (dialog?.kind === 'sessions') {
    body = (
      <SessionsDialog
        sessions={dialog.sessions}
        currentId={props.sessionId}
        onSelect={(id) => {
          onClose();
          store.openSession(id);
        }}
        onRename={(id, title) => {
          services.sessions.rename(id, title);
          if (id === props.sessionId) store.refreshSession();
        }}
        onDelete={(id) => {
          services.sessions.delete(id);
          // the open session is gone: a new chat, as ctrl+n gives
          if (id === props.sessionId) store.openSession(undefined);
        }}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'commands') {
    body = (
      <CommandsDialog
        commands={commands.list ?? props.commands.known()}
        loading={commands.for !== dialog}
        onRun={(id) => {
          onClose();
          props.commands.run(id);
        }}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'arguments') {
    body = (
      <ArgumentsDialog
        title={dialog.command.title}
        names={dialog.command.placeholders}
        onSubmit={(values) => sendPrompt(fillPlaceholders(dialog.command.content, values))}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'models') {
    body = (
      <ModelsDialog
        providers={providers.list}
        refreshing={providers.for !== dialog}
        currentModelId={services.agent.model().id}
        onSelect={(id, options) => {
          onClose();
          void chooseModel(services, store, id, options);
        }}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'profiles') {
    body = (
      <ProfilesDialog
        profiles={services.profiles?.list() ?? []}
        active={services.profiles?.active()}
        onSelect={(name) => {
          onClose();
          void chooseProfile(services, store, name);
        }}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'themes') {
    // read when the dialog opens: a theme file added while the TUI runs is listed
    const themes = listThemes({ cwd: services.cwd, env: process.env });
    body = (
      <ThemesDialog
        names={themes.map((t) => t.name)}
        details={Object.fromEntries(themes.map((t) => [t.name, themeSourceLabel(t)]))}
        current={props.theme.name}
        onSelect={(name) => {
          onClose();
          const problem = props.onTheme(name);
          // a theme that cannot be drawn is not saved: the config keeps a theme that works at the next start
          if (problem) {
            store.setStatus(`${problem}; not saved`, 'error');
            return;
          }
          try {
            services.setTheme(name);
            store.setStatus(`Theme: ${name} (saved to the global config)`, 'info');
          } catch (err) {
            store.setStatus(`Theme not saved: ${(err as Error).message}`, 'error');
          }
        }}
        onClose={onClose}
        {...area}
      />
    );
  } else if (dialog?.kind === 'init') {
    body = (
      <InitDialog
        onAnswer={(init) => {
          if (init) sendPrompt(initPrompt(services));
          else {
            services.init.markInitialized();
            onClose();
          }
        }}
        {...area}
      />
    );
  } else if (dialog?.kind === 'trust') {
    const back = dialog.back;
    body = (
      <TrustDialog
        items={dialog.items}
        onAnswer={(trust) => {
          if (back) props.onOpen(back);
          else onClose();
          void services.trust?.answer(trust).then(
            (line) => {
              // the status line goes with the next prompt; the logs page keeps it
              store.setStatus(line, trust ? 'info' : 'warn');
              store.log(trust ? 'info' : 'warn', line);
            },
            (err: unknown) => store.setStatus((err as Error).message, 'error'),
          );
        }}
        {...area}
      />
    );
  } else if (dialog?.kind === 'filepicker') {
    body = (
      <FilePickerDialog
        cwd={services.cwd}
        onClose={onClose}
        onPick={(path) => {
          onClose();
          if (props.attachmentCount >= MAX_ATTACHMENTS) {
            store.setStatus(
              `At most ${MAX_ATTACHMENTS} attachments: remove one with ${keymap.hint('attachment.remove') ?? 'attachment.remove'} and its number`,
              'warn',
            );
            return;
          }
          loadAttachment(path).then(props.onAttach, (err: unknown) => store.setStatus((err as Error).message, 'error'));
        }}
      />
    );
  }
  return (
    <Box width={area.width} height={area.height} alignItems="center" justifyContent="center" flexDirection="column">
      {body}
    </Box>
  );
}
