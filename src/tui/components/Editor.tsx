/**
 * The prompt editor at the bottom of the chat page (laid out as the original's): a top border, a `>`
 * prompt, the text wrapped to the width with an inverse-video cursor, the attachment chips above it
 * and the `@` completion popup above those.
 *
 * Keys (through the input router, {@link LAYER.editor}; only while `focus`):
 * - enter sends (not while `disabled`; blank text does nothing). A `\` before the cursor + enter
 *   turns the `\` into a newline (the original's way). alt+enter / shift+enter (when the terminal
 *   reports them: `ESC CR`, `CSI 13;2u`) insert a newline.
 * - ↑/↓ move between rows; on the first/last row they recall earlier prompts (`history`, newest
 *   last); coming back down past the newest restores the draft.
 * - ctrl+e edits the text in `$VISUAL`/`$EDITOR`; what was saved comes back into the box (never
 *   sent: enter sends it); a failed or unsaved edit leaves the draft as it was, with a message.
 * - ctrl+r then 1–5 removes that attachment; ctrl+r then r removes all.
 * - `@` at the start or after a space opens the file completion ({@link FileCompletion}); `/` at
 *   the start of the input opens the command list ({@link SlashCompletion}, with `listCommands`
 *   and `onCommand`). Text that arrives in one read opens them as typing it does.
 * - the editing keys of `EDIT_BINDINGS` (input/editor-keys.ts).
 * Pastes (bracketed, or a run of text the terminal sent at once) are inserted whole, never sent.
 *
 * Keystrokes re-render only this component: its state is local, kept in a ref as well so two keys
 * arriving before React re-renders both apply. Give it stable callbacks: it is memoised.
 */
import { Box, Text, useStdin, useStdout } from 'ink';
import { memo, useCallback, useImperativeHandle, useMemo, useRef, type Ref } from 'react';
import type { ImagePart } from '../../message.js';
import { useTheme } from '../theme-context.js';
import { useKeymap } from '../keymap-context.js';
import { useLatestState } from '../useLatestState.js';
import { LAYER, useKeys, usePaste } from '../input/InputProvider.js';
import { matchesBinding, type Key } from '../input/keys.js';
import { EMPTY_EDITOR, editorWith, insertText, moveVertical, type EditorState } from '../input/editor-state.js';
import { applyEditKey } from '../input/editor-keys.js';
import { layoutEditor } from '../input/editor-layout.js';
import { AT_DRAFT, historyNewer, historyOlder, type HistoryPosition } from '../input/prompt-history.js';
import { AttachmentError, loadAttachment, MAX_ATTACHMENTS } from '../input/attachments.js';
import { externalEditMessage, externalEditorRunner, type ExternalEditorRunner } from '../input/external-editor.js';
import { projectFileLister } from '../input/project-files.js';
import {
  completionOpenedBy,
  completionQuery,
  completionStillOpen,
  type Completion,
} from '../input/completion-trigger.js';
import type { CommandItem } from '../commands.js';
import { FileCompletion } from './FileCompletion.js';
import { SlashCompletion } from './SlashCompletion.js';

/** Text rows shown at most; a longer text scrolls with the cursor. */
export const EDITOR_MAX_ROWS = 8;

/** Severity of a message for the status bar. */
export type EditorMessageLevel = 'info' | 'warn' | 'error';

/** What the app can do to the editor from outside (through `ref`). */
export interface EditorHandle {
  /** Loads an image file and attaches it; false (and a message) when refused or unreadable. */
  attachFile(path: string): Promise<boolean>;
  /** Attaches an already loaded image; false (and a message) when 5 are attached already. */
  addAttachment(image: ImagePart): boolean;
  /** Replaces the text (cursor at its end), e.g. to put a refused prompt back. */
  setText(text: string): void;
  /** The text as it is now. */
  getText(): string;
}

export interface EditorProps {
  /**
   * the prompt to send (unchanged, not trimmed) and the attached images; the editor then empties,
   * unless this returns false (refused: the text and attachments stay)
   */
  onSubmit: (text: string, attachments: ImagePart[]) => boolean | void;
  /** the agent is busy: typing works, enter does not send (the app says why in the status bar) */
  disabled?: boolean;
  /** the same as `disabled` (either one stops enter from sending) */
  busy?: boolean;
  /**
   * the attached images, when the app keeps them (with `onAttachmentsChange`); omitted: the editor
   * keeps its own, and the app adds through `ref` ({@link EditorHandle})
   */
  attachments?: readonly ImagePart[];
  /** the attachments changed (ctrl+r removal, `ref` additions, sent) */
  onAttachmentsChange?: (attachments: ImagePart[]) => void;
  /** the project folder: the default `@` completion lists its files */
  cwd: string;
  /** earlier prompts of the session, oldest first, for ↑/↓ */
  history: readonly string[];
  /** columns, prompt included */
  width: number;
  /** takes keys and pastes, shows the cursor, borderFocused border */
  focus: boolean;
  /** `@` completion candidates (relative paths, folders ending in `/`); default: the cwd's files, cached 30 s */
  listFiles?: () => Promise<string[]>;
  /**
   * ctrl+e: edits the text outside; default: `externalEditorRunner` ($VISUAL/$EDITOR, Ink's raw mode
   * released, the alternate screen left and re-entered, a redraw through a synthetic resize)
   */
  runExternalEditor?: ExternalEditorRunner;
  /** the `/` list's commands (built-ins and custom); without it and `onCommand`, `/` is just a character */
  listCommands?: () => Promise<readonly CommandItem[]>;
  /** a command chosen in the `/` list (the input is emptied first) */
  onCommand?: (id: string) => void;
  /** a refusal or failure to show (6th attachment, unreadable image, external editor failed) */
  onMessage?: (text: string, level: EditorMessageLevel) => void;
  /** for {@link EditorHandle} */
  ref?: Ref<EditorHandle>;
}

interface Model {
  edit: EditorState;
  history: HistoryPosition;
  /** the `@` or `/` list that is open */
  completion?: Completion;
  attachments: ImagePart[];
}

const INITIAL: Model = { edit: EMPTY_EDITOR, history: AT_DRAFT, attachments: [] };

/** Closes the completion when the text no longer has it (see `completionStillOpen`). */
function checkCompletion(m: Model): Model {
  if (!m.completion || completionStillOpen(m.completion, m.edit)) return m;
  return { ...m, completion: undefined };
}

/** The editor; see the module comment. */
export const Editor = memo(function Editor(props: EditorProps) {
  const { onSubmit, cwd, history, width, focus, onMessage, ref, onAttachmentsChange, listCommands, onCommand } = props;
  const commandsEnabled = !!listCommands && !!onCommand;
  const disabled = props.disabled === true || props.busy === true;
  const controlled = props.attachments;
  const theme = useTheme();
  const keymap = useKeymap();
  // the model as the last key left it: keys that arrive in one read reach the handlers before React re-renders
  const [model, modelRef, setModel] = useLatestState<Model>(INITIAL);
  const removePending = useRef(false);
  const externalRunning = useRef(false);
  const textWidth = Math.max(1, width - 3); // `> ` and a free column for the cursor at a row's end

  const update = useCallback(
    (change: (m: Model) => Model) => {
      const next = checkCompletion(change(modelRef.current));
      if (next === modelRef.current) return;
      setModel(next);
    },
    [modelRef, setModel],
  );

  /** A new text: history browsing ends (the edited text is the draft now). */
  const edit = useCallback(
    (next: EditorState, completion?: Completion) =>
      update((m) => ({
        ...m,
        edit: next,
        history: next.text === m.edit.text ? m.history : AT_DRAFT,
        completion: completion ?? m.completion,
      })),
    [update],
  );

  // the attachments in effect: the app's when it keeps them, else our own
  const attachmentsRef = useRef<readonly ImagePart[]>([]);
  attachmentsRef.current = controlled ?? model.attachments;
  const setAttachments = useCallback(
    (list: ImagePart[]) => {
      if (controlled) {
        attachmentsRef.current = list;
        onAttachmentsChange?.(list);
      } else {
        update((m) => ({ ...m, attachments: list }));
        attachmentsRef.current = list;
        onAttachmentsChange?.(list);
      }
    },
    [controlled, onAttachmentsChange, update],
  );

  /** True (and a message) when no more attachments fit. */
  const attachmentsFull = useCallback((): boolean => {
    if (attachmentsRef.current.length < MAX_ATTACHMENTS) return false;
    onMessage?.(`too many attachments: the limit is ${MAX_ATTACHMENTS}`, 'warn');
    return true;
  }, [onMessage]);

  const addAttachment = useCallback(
    (image: ImagePart): boolean => {
      if (attachmentsFull()) return false;
      setAttachments([...attachmentsRef.current, image]);
      return true;
    },
    [setAttachments, attachmentsFull],
  );

  useImperativeHandle(
    ref,
    () => ({
      addAttachment,
      async attachFile(path) {
        if (attachmentsFull()) return false;
        try {
          return addAttachment(await loadAttachment(path));
        } catch (err) {
          onMessage?.(err instanceof AttachmentError ? err.message : String(err), 'error');
          return false;
        }
      },
      setText: (text) => update((m) => ({ ...m, edit: editorWith(text), history: AT_DRAFT, completion: undefined })),
      getText: () => modelRef.current.edit.text,
    }),
    [addAttachment, attachmentsFull, update, onMessage, modelRef],
  );

  const send = useCallback(
    (text: string) => {
      const attachments = [...attachmentsRef.current];
      if (onSubmit(text, attachments) === false) return;
      setModel(INITIAL);
      if (attachments.length > 0) setAttachments([]);
    },
    [onSubmit, setAttachments, setModel],
  );

  const { setRawMode, stdin } = useStdin();
  const { stdout } = useStdout();
  const runExternal = useMemo(
    () => props.runExternalEditor ?? externalEditorRunner({ setRawMode, stdin, stdout }),
    [props.runExternalEditor, setRawMode, stdin, stdout],
  );
  // ctrl+e: what the editor saved comes back into the box and the person sends it with enter;
  // nothing is ever sent from here
  const openExternalEditor = () => {
    if (externalRunning.current) return;
    externalRunning.current = true;
    runExternal(modelRef.current.edit.text)
      .then(
        (result) => {
          const { text, level } = externalEditMessage(result, { submit: keymap.hint('editor.submit') });
          if (result.outcome === 'saved') {
            update((m) => ({ ...m, edit: editorWith(result.text), history: AT_DRAFT, completion: undefined }));
          }
          onMessage?.(text, level);
        },
        (err: unknown) =>
          onMessage?.(`${err instanceof Error ? err.message : String(err)}; the draft is unchanged`, 'error'),
      )
      .finally(() => {
        externalRunning.current = false;
      });
  };
  const listFiles = useMemo(() => props.listFiles ?? projectFileLister(cwd), [props.listFiles, cwd]);

  const onKey = (key: Key): boolean => {
    const m = modelRef.current;
    if (removePending.current) {
      removePending.current = false;
      const digit = Number(key.text);
      if (key.text.length === 1 && digit >= 1 && digit <= MAX_ATTACHMENTS) {
        setAttachments(attachmentsRef.current.filter((_, i) => i !== digit - 1));
        return true;
      }
      if (key.text === 'r') {
        setAttachments([]);
        return true;
      }
      // any other key cancels and acts as itself
    }
    if (keymap.matches(key, 'attachment.remove') && attachmentsRef.current.length > 0) {
      removePending.current = true;
      return true;
    }
    if (keymap.matches(key, 'editor.open')) {
      openExternalEditor();
      return true;
    }
    if (keymap.matches(key, 'editor.newline')) {
      edit(insertText(m.edit, '\n'));
      return true;
    }
    if (keymap.matches(key, 'editor.submit')) return onEnter(key, m);
    if (matchesBinding(key, 'up') || matchesBinding(key, 'down')) {
      const up = key.name === 'up';
      const moved = moveVertical(m.edit, textWidth, up ? -1 : 1);
      if (moved) {
        update((x) => ({ ...x, edit: moved }));
        return true;
      }
      const step = up ? historyOlder(history, m.history, m.edit.text) : historyNewer(history, m.history);
      if (step) update((x) => ({ ...x, edit: editorWith(step.text), history: step.position, completion: undefined }));
      return true;
    }
    const next = applyEditKey(m.edit, key);
    if (!next) return false;
    edit(next, completionOpenedBy(m.edit, next, commandsEnabled));
    return true;
  };

  const onEnter = (key: Key, m: Model): boolean => {
    const { text, cursor } = m.edit;
    if (key.meta || key.shift) {
      edit(insertText(m.edit, '\n'));
    } else if (cursor > 0 && text[cursor - 1] === '\\') {
      edit({ text: text.slice(0, cursor - 1) + '\n' + text.slice(cursor), cursor });
    } else if (!disabled && text.trim() !== '') {
      send(text);
    }
    return true;
  };

  useKeys(onKey, { layer: LAYER.editor, active: focus });
  usePaste(
    (text) => {
      const before = modelRef.current.edit;
      const next = insertText(before, text);
      edit(next, completionOpenedBy(before, next, commandsEnabled));
    },
    { layer: LAYER.editor, active: focus },
  );

  const onSelectFile = useCallback(
    (path: string) =>
      update((m) => {
        if (m.completion?.kind !== 'file') return m;
        const at = m.completion.at;
        const { text, cursor } = m.edit;
        const edited = { text: text.slice(0, at) + path + text.slice(cursor), cursor: at + path.length };
        return { ...m, edit: edited, history: AT_DRAFT, completion: undefined };
      }),
    [update],
  );
  const onCloseCompletion = useCallback(() => update((m) => ({ ...m, completion: undefined })), [update]);
  const onRunCommand = useCallback(
    (id: string) => {
      update((m) => ({ ...m, edit: EMPTY_EDITOR, history: AT_DRAFT, completion: undefined }));
      onCommand?.(id);
    },
    [update, onCommand],
  );
  const onCompleteCommand = useCallback(
    (name: string) =>
      update((m) => ({
        ...m,
        edit: editorWith(`/${name}`),
        history: AT_DRAFT,
        completion: { kind: 'command', at: 0 },
      })),
    [update],
  );

  const view = useMemo(
    () => layoutEditor(model.edit.text, model.edit.cursor, textWidth, EDITOR_MAX_ROWS, focus),
    [model.edit, textWidth, focus],
  );
  const completion = focus ? model.completion : undefined;
  const query = completion ? completionQuery(completion, model.edit) : '';

  return (
    <Box flexDirection="column" width={width}>
      {completion?.kind === 'file' ? (
        <FileCompletion
          query={query}
          listFiles={listFiles}
          onSelect={onSelectFile}
          onClose={onCloseCompletion}
          width={width}
        />
      ) : null}
      {completion?.kind === 'command' && listCommands ? (
        <SlashCompletion
          query={query}
          listCommands={listCommands}
          onRun={onRunCommand}
          onComplete={onCompleteCommand}
          onClose={onCloseCompletion}
          width={width}
        />
      ) : null}
      {attachmentsRef.current.length > 0 ? (
        <Box flexWrap="wrap" columnGap={2}>
          {attachmentsRef.current.map((a, i) => (
            <Text key={i} color={theme.secondary} wrap="truncate-end">{`[${i + 1}] ${a.name ?? 'image'}`}</Text>
          ))}
        </Box>
      ) : null}
      <Box
        flexDirection="column"
        borderStyle="single"
        borderTop
        borderBottom={false}
        borderLeft={false}
        borderRight={false}
        borderColor={focus ? theme.borderFocused : theme.border}
      >
        {view.hiddenAbove > 0 ? <Text color={theme.textMuted}>{`  … ${view.hiddenAbove} more lines`}</Text> : null}
        {view.rows.map((row, i) => (
          <Text key={i} wrap="truncate-end">
            <Text color={theme.primary}>{row.first ? '> ' : '  '}</Text>
            <Text color={theme.text}>{row.before}</Text>
            {row.cursor !== undefined ? <Text inverse>{row.cursor}</Text> : null}
            <Text color={theme.text}>{row.after}</Text>
          </Text>
        ))}
        {view.hiddenBelow > 0 ? <Text color={theme.textMuted}>{`  … ${view.hiddenBelow} more lines`}</Text> : null}
      </Box>
    </Box>
  );
});
