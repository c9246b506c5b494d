/**
 * What a custom tool's output becomes before the model sees it: control characters other than tab
 * and newline removed; the text is then cut to the tool's limits (`tools/truncate.ts`, the `note`
 * style). (Decoding a process's bytes is in `decode-output.ts`, apart: the encoding detection it
 * loads is needed only when a tool runs.)
 */

/** Removes C0/C1 control characters and ANSI escape sequences, keeping tab and newline. */
export function removeControlCharacters(text: string): string {
  return (
    text
      // colour and cursor sequences first, so their parameters don't remain as text
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
      .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
  );
}
