/**
 * The TUI's root: the chat page (message list, sidebar, editor, status bar), the logs page, one
 * dialog at a time, and the global keybindings. It reads the chat store and calls
 * the core only through {@link ChatServices}.
 */
import { Box, measureElement, useStdout, type DOMElement } from 'ink';
import React, { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ImagePart } from '../message.js';
import { Editor, type EditorHandle } from './components/Editor.js';
import { DialogHost, QUIT_KEY_LAYER } from './DialogHost.js';
import type { DialogState } from './dialog-state.js';
import { LAYER, useKeys } from './input/InputProvider.js';
import { keyPhrase } from './key-hints.js';
import { useKeymap } from './keymap-context.js';
import { MessageList } from './components/MessageList.js';
import { Pulse } from './components/Pulse.js';
import { QueuedPrompts } from './components/QueuedPrompts.js';
import { Sidebar } from './components/Sidebar.js';
import { StatusBar } from './components/StatusBar.js';
import { Welcome } from './components/Welcome.js';
import { sandboxNotice } from '../sandbox/notice.js';
import { LogsPage } from './pages/LogsPage.js';
import { PagerPage, pagerContent } from './pages/PagerPage.js';
import { onHighlighterLoaded } from './render/highlight.js';
import { LineCache } from './render/line-cache.js';
import type { ChatStore } from './state/chat-store.js';
import type { ChatServices, LspView } from './state/services.js';
import type { Theme } from './theme.js';
import { ThemeContext } from './theme-context.js';
import { loadTheme } from './theme-loader.js';
import { useCommands } from './useCommands.js';
import { useEstimatedUsage } from './useEstimatedUsage.js';
import { appendToPrompt } from './editor-channel.js';
import { useEditorChannel } from './useEditorChannel.js';

export interface TuiAppProps {
  services: ChatServices;
  store: ChatStore;
  initialTheme: Theme;
  /** the person confirmed quitting */
  onQuit(): void;
  /** subscribes to "a frame was drawn" (Ink's onRender); returns the unsubscribe */
  onFrame?: (listener: () => void) => () => void;
}

/** Narrower terminals hide the sidebar (columns). */
const SIDEBAR_MIN_COLUMNS = 90;
const SIDEBAR_WIDTH = 34;

/** The size of a terminal, or 80×24 where the stream does not say. */
function sizeOf(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/** The terminal's size, re-read on resize (output.ts debounces the events). */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

export function TuiApp({ services, store, initialTheme, onQuit, onFrame }: TuiAppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const usageEstimated = useEstimatedUsage(services.bus, state.session?.id);
  const lsp = useSyncExternalStore(services.lsp?.subscribe ?? noLspSubscribe, services.lsp?.snapshot ?? noLspSnapshot);
  const { columns, rows } = useTerminalSize();
  const [theme, setTheme] = useState(initialTheme);
  const keymap = useKeymap();
  // status messages the store writes name the keys of this tree's keymap
  store.keymap = keymap;
  const [dialog, setDialog] = useState<DialogState | undefined>(() =>
    services.init.isInitialized() ? undefined : { kind: 'init' },
  );
  // an untrusted project's own code waits for the trust dialog, in front of whatever is open
  useEffect(() => {
    let live = true;
    void services.trust?.pending().then((items) => {
      if (live && items && items.length > 0) setDialog((open) => ({ kind: 'trust', items, back: open }));
    });
    return () => {
      live = false;
    };
  }, [services]);
  // whether commands run in the OS sandbox: the status bar says so; a run without it is said once
  const [sandboxed, setSandboxed] = useState<boolean>();
  useEffect(() => {
    let live = true;
    void services.sandbox?.status().then(
      (status) => {
        if (!live) return;
        setSandboxed(status.active);
        const notice = sandboxNotice(status);
        if (notice) store.setStatus(notice, 'warn');
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [services, store]);
  const [page, setPage] = useState<'chat' | 'logs' | 'pager'>('chat');
  // the pager's tool result
  const [pager, setPager] = useState<{ title: string; text: string }>();
  const [showThinking, setShowThinking] = useState(false);
  const [attachments, setAttachments] = useState<ImagePart[]>([]);
  const cache = useMemo(() => new LineCache(), []);
  const editorRef = useRef<EditorHandle>(null);
  const isEditorEmpty = useCallback(() => (editorRef.current?.getText() ?? '') === '', []);
  const draft = useRef('');
  useEffect(() => {
    if (page === 'chat' && draft.current) {
      editorRef.current?.setText(draft.current);
      draft.current = '';
    }
  }, [page]);
  // the VS Code extension that started this TUI adds `@path` mentions to the prompt (never sends)
  useEditorChannel(
    {
      append: (text) => {
        if (page === 'chat' && editorRef.current)
          editorRef.current.setText(appendToPrompt(editorRef.current.getText(), text));
        else draft.current = appendToPrompt(draft.current, text);
      },
      focus: () => setPage('chat'),
    },
    (message) => store.setStatus(message, 'error'),
  );
  // code blocks drawn before the grammars loaded are uncoloured: draw them again once they are in
  const [highlightEpoch, setHighlightEpoch] = useState(0);
  useEffect(
    () =>
      onHighlighterLoaded(() => {
        cache.clear();
        setHighlightEpoch((n) => n + 1);
      }),
    [cache],
  );
  const model = services.agent.model();

  // Ink repaints the whole screen when the frame is as tall as the terminal; one row less keeps
  // its incremental (changed lines only) rendering
  const height = Math.max(5, rows - 1);
  const showSidebar = !!state.session && columns >= SIDEBAR_MIN_COLUMNS;
  const mainWidth = columns - (showSidebar ? SIDEBAR_WIDTH : 0);
  const listWidth = Math.max(10, mainWidth - 2);

  // the message area's height: the row's, measured after layout. The row is sized by the flexbox
  // (what the editor and status bar leave), never by its content, so the measure is not circular
  const areaRef = useRef<DOMElement>(null);
  const [areaHeight, setAreaHeight] = useState(Math.max(1, height - 4));
  const measureArea = useCallback(() => {
    if (!areaRef.current) return;
    const measured = measureElement(areaRef.current).height;
    if (measured > 0) setAreaHeight((old) => (old === measured ? old : measured));
  }, []);
  useEffect(measureArea);
  // typing re-renders only the editor, whose height may change: measure again after every frame
  useEffect(() => onFrame?.(measureArea), [onFrame, measureArea]);

  const permission = state.permissionQueue[0];
  const modal = !!permission || !!dialog || page !== 'chat';

  const refuseWhileBusy = useCallback(
    (what: string) => {
      if (!state.busy) return false;
      store.setStatus(
        `The agent is busy: ${what} after the reply finishes${keyPhrase(keymap, 'session.interrupt', (k) => ` (${k} cancels it)`)}`,
        'warn',
      );
      return true;
    },
    [state.busy, store, keymap],
  );

  useKeys(
    (key) => {
      if (keymap.matches(key, 'app.quit')) setDialog({ kind: 'quit' });
      // `?` is typed text once something is in the editor: a message queued while a reply runs may ask a question
      else if (
        keymap.matches(key, 'app.help') ||
        (state.busy && keymap.matches(key, 'app.help_busy') && isEditorEmpty())
      )
        setDialog({ kind: 'help' });
      else if (keymap.matches(key, 'app.logs')) {
        // the editor unmounts with the chat page: keep what was typed
        draft.current = editorRef.current?.getText() ?? '';
        setPage('logs');
      } else if (keymap.matches(key, 'session.list')) {
        if (!refuseWhileBusy('switch sessions')) setDialog({ kind: 'sessions', sessions: services.sessions.list() });
      } else if (keymap.matches(key, 'command.list')) setDialog({ kind: 'commands' });
      else if (keymap.matches(key, 'model.list')) {
        if (!refuseWhileBusy('switch models')) setDialog({ kind: 'models' });
      } else if (keymap.matches(key, 'theme.list')) setDialog({ kind: 'themes' });
      else if (keymap.matches(key, 'profile.list')) setDialog({ kind: 'profiles' });
      else if (keymap.matches(key, 'attachment.add')) setDialog({ kind: 'filepicker' });
      else if (keymap.matches(key, 'session.new')) {
        if (!refuseWhileBusy('start a new session')) {
          store.openSession(undefined);
          setAttachments([]);
        }
      } else if (keymap.matches(key, 'messages.toggle_thinking')) setShowThinking((v) => !v);
      else if (keymap.matches(key, 'session.undo')) void store.undoTurn();
      else if (keymap.matches(key, 'session.redo')) void store.redoTurn();
      // esc cancels the run (holding the queue); with nothing running, it clears the queue
      else if (keymap.matches(key, 'session.interrupt') && (state.busy || state.compacting || state.queue.length > 0))
        store.cancel();
      else return false;
      return true;
    },
    { layer: LAYER.global, active: !modal },
  );
  // ctrl+c on a page other than the chat (logs, …) asks the quit question there
  useKeys(
    (key) => {
      if (!keymap.matches(key, 'app.quit')) return false;
      setPage('chat');
      setDialog({ kind: 'quit' });
      return true;
    },
    { layer: QUIT_KEY_LAYER, active: page !== 'chat' },
  );

  const send = useCallback(
    (text: string, images: ImagePart[]) => {
      // while a reply runs the prompt is queued, and goes when it ends; a refused one
      // (the session was deleted elsewhere) stays in the editor with its images
      if (store.submit(text, images) === 'refused') return false;
      setAttachments([]);
      return true;
    },
    [store],
  );

  // the `/` list and the ctrl+k dialog run the same commands (commands.ts)
  const commands = useCommands({
    services,
    store,
    sessionId: state.session?.id,
    busy: state.busy || state.compacting,
    openDialog: setDialog,
    showLogs: () => setPage('logs'),
    newSession: () => {
      store.openSession(undefined);
      setAttachments([]);
    },
    quit: onQuit,
    send: (text) => send(text, []),
    refuseWhileBusy,
  });

  // the queue under the list: ↑ on an empty editor takes the newest queued prompt back to edit
  const recallQueued = useCallback(() => {
    const prompt = store.recallQueued();
    if (!prompt) return;
    editorRef.current?.setText(prompt.text);
    setAttachments(prompt.attachments);
  }, [store]);
  const releaseQueue = useCallback(() => store.releaseQueue(), [store]);

  // the expand and pager keys on the message list
  const onResultKey = useCallback(
    (action: 'toggle' | 'pager', toolCallId: string | undefined) => {
      if (!toolCallId) {
        store.setStatus(
          `No cut tool result on screen: scroll to one${keyPhrase(keymap, 'messages.page_up', (k) => ` (${k})`)} first`,
          'info',
        );
        return;
      }
      if (action === 'toggle') {
        if (store.toggleResult(toolCallId) === 'missing') store.setStatus('That tool result is not stored', 'warn');
        return;
      }
      const stored = store.storedResult(toolCallId);
      if (!stored) return store.setStatus('That tool result is not stored', 'warn');
      draft.current = editorRef.current?.getText() ?? '';
      setPager(pagerContent(stored.call, stored.result, services.cwd));
      setPage('pager');
    },
    [store, services.cwd, keymap],
  );

  const closeDialog = useCallback(() => setDialog(undefined), []);
  const dialogArea = { width: mainWidth, height: areaHeight };

  if (page === 'pager' && pager) {
    return (
      <ThemeContext.Provider value={theme}>
        <Box flexDirection="column" width={columns} height={height} backgroundColor={theme.background}>
          <PagerPage
            title={pager.title}
            text={pager.text}
            onBack={() => setPage('chat')}
            width={columns}
            height={height}
          />
        </Box>
      </ThemeContext.Provider>
    );
  }

  if (page === 'logs') {
    return (
      <ThemeContext.Provider value={theme}>
        <Box flexDirection="column" width={columns} height={height} backgroundColor={theme.background}>
          <LogsPage entries={state.logs} onBack={() => setPage('chat')} width={columns} height={height} />
        </Box>
      </ThemeContext.Provider>
    );
  }

  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={columns} height={height} backgroundColor={theme.background}>
        <Box
          ref={areaRef}
          flexDirection="row"
          flexGrow={1}
          flexShrink={1}
          flexBasis={0}
          minHeight={0}
          overflow="hidden"
        >
          <Box
            flexDirection="column"
            width={mainWidth}
            flexShrink={0}
            paddingLeft={1}
            paddingRight={1}
            overflow="hidden"
          >
            {permission || dialog ? (
              <DialogHost
                services={services}
                store={store}
                permission={permission}
                queued={Math.max(0, state.permissionQueue.length - 1)}
                dialog={dialog}
                area={dialogArea}
                theme={theme}
                sessionId={state.session?.id}
                busy={state.busy}
                onClose={closeDialog}
                onOpen={setDialog}
                onQuit={onQuit}
                onTheme={(name) => {
                  // read now, not at start: a theme file edited while the TUI runs shows its new colours
                  const loaded = loadTheme(name, { cwd: services.cwd, env: process.env });
                  setTheme(loaded.theme);
                  return loaded.problem;
                }}
                onAttach={(image) => {
                  if (attachments.some((a) => a.name === image.name && a.data === image.data)) {
                    store.setStatus(`${image.name ?? 'That image'} is attached already`, 'warn');
                  } else setAttachments((list) => [...list, image]);
                }}
                attachmentCount={attachments.length}
                send={send}
                commands={commands}
              />
            ) : state.items.length === 0 ? (
              <Welcome
                version={services.version}
                cwd={services.cwd}
                modelName={model.name}
                profile={services.profiles?.active()}
              />
            ) : (
              <MessageList
                items={state.items}
                width={listWidth}
                height={areaHeight}
                resetKey={`${state.session?.id}:${state.promptHistory.length}`}
                showThinking={showThinking}
                cwd={services.cwd}
                active={!modal}
                cache={cache}
                epoch={highlightEpoch}
                onResultKey={onResultKey}
              />
            )}
          </Box>
          {showSidebar ? (
            <Sidebar
              width={SIDEBAR_WIDTH}
              height={areaHeight}
              version={services.version}
              cwd={services.cwd}
              title={state.session?.title ?? ''}
              lspServers={services.lspServers}
              lspStates={services.lsp ? lsp.servers : undefined}
              mcpServers={state.mcpServers}
              customTools={state.customTools}
              modifiedFiles={state.modifiedFiles}
            />
          ) : null}
        </Box>
        <QueuedPrompts
          queue={state.queue}
          held={state.queueHeld}
          width={columns}
          active={!modal}
          isEditorEmpty={isEditorEmpty}
          onRecall={recallQueued}
          onRelease={releaseQueue}
        />
        {state.activity ? (
          <Pulse activity={state.activity} width={columns} interruptKey={keymap.hint('session.interrupt')} />
        ) : null}
        <Editor
          ref={editorRef}
          width={columns}
          cwd={services.cwd}
          history={state.promptHistory}
          focus={!modal}
          attachments={attachments}
          onAttachmentsChange={setAttachments}
          onSubmit={send}
          listCommands={commands.list}
          onCommand={commands.run}
          onMessage={(text, level) => store.setStatus(text, level)}
        />
        <StatusBar
          width={columns}
          usage={
            state.session
              ? {
                  contextTokens: state.session.contextTokens,
                  costUsd: state.session.costUsd,
                  estimated: usageEstimated,
                }
              : undefined
          }
          contextWindowTokens={model.contextWindowTokens}
          status={state.status}
          diagnostics={lsp.counts}
          lspServers={lsp.servers}
          modelName={model.name}
          profile={services.profiles?.active()}
          sandboxed={sandboxed}
          busy={state.busy}
        />
      </Box>
    </ThemeContext.Provider>
  );
}

// without language servers: nothing to subscribe to, and a snapshot that never changes
const NO_LSP: LspView = { servers: [], counts: { errors: 0, warnings: 0 } };
const noLspSubscribe = () => () => {};
const noLspSnapshot = () => NO_LSP;
