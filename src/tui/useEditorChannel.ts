/**
 * Opens the VS Code extension's channel ({@link openEditorChannel}) for as long as the TUI runs,
 * when the extension started it (its variables are in the environment); otherwise nothing.
 * A channel that cannot be opened safely is reported on the status line and the TUI goes on.
 */
import { useEffect, useRef } from 'react';
import { EditorChannelError, openEditorChannel, type EditorChannelHandlers } from './editor-channel.js';

/**
 * @param handlers what an accepted request does (read through a ref: they may change every render)
 * @param onError the reason the channel was not opened
 */
export function useEditorChannel(
  handlers: EditorChannelHandlers,
  onError: (message: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const current = useRef(handlers);
  current.current = handlers;
  const report = useRef(onError);
  report.current = onError;
  useEffect(() => {
    let closed = false;
    let close: (() => Promise<void>) | undefined;
    openEditorChannel(env, {
      append: (text) => current.current.append(text),
      focus: () => current.current.focus(),
    }).then(
      (channel) => {
        if (closed) void channel?.close();
        else close = channel?.close;
      },
      (err: unknown) =>
        report.current(err instanceof EditorChannelError ? `VS Code channel not opened: ${err.message}` : String(err)),
    );
    return () => {
      closed = true;
      void close?.();
    };
  }, [env]);
}
