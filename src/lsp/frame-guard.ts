/**
 * Checks the framing of what a language server writes on stdout, beside the JSON-RPC reader: every
 * message is `Content-Length: <n>\r\n` (other headers allowed), an empty line, then n bytes. The reader
 * of vscode-jsonrpc waits for ever on text that never forms a header block (a program printing a
 * banner, a log line, a shell's error) and on a length it can never receive (`Content-Length:
 * 99999999999`), so a broken server would hold every caller until its timeout. This guard names the
 * problem at the first byte that cannot be LSP, so the server is given up at once with that reason.
 *
 * Framing: https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol
 */

/** The largest message we accept, in bytes; beyond it a length is taken as broken, not as data to wait for. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/** The longest header block we accept, in bytes (real ones are under 100). */
const MAX_HEADER_BYTES = 4096;
/** A header line: a token name, a colon, a value. */
const HEADER_LINE = /^[A-Za-z0-9-]+:[ \t]*[^\r\n]*$/;

/** Follows the byte stream; {@link FrameGuard.push} returns a reason at the first framing error. */
export class FrameGuard {
  private header = '';
  private bodyLeft = 0;
  private problem: string | undefined;

  /**
   * Feeds the next chunk. Returns undefined while the stream is well framed, and from the first error
   * on a one-line reason, e.g. `wrote "Hello from the server" instead of an LSP message header`.
   */
  push(chunk: Buffer): string | undefined {
    if (this.problem) return this.problem;
    let at = 0;
    while (at < chunk.length) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= take;
        at += take;
        continue;
      }
      const end = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, end === -1 ? chunk.length : end + 1).toString('latin1');
      at = end === -1 ? chunk.length : end + 1;
      this.header += piece;
      if (this.header.length > MAX_HEADER_BYTES) return (this.problem = garbage(this.header));
      if (end === -1) {
        // a partial line: it must already look like the start of a header
        if (!/^[A-Za-z0-9-]*(:[^\n]*)?\r?$/.test(this.header.split('\r\n').pop() ?? ''))
          return (this.problem = garbage(this.header));
        continue;
      }
      const lines = this.header.split('\r\n');
      const line = lines[lines.length - 2] ?? '';
      if (!this.header.endsWith('\r\n')) return (this.problem = garbage(this.header));
      if (line !== '') {
        if (!HEADER_LINE.test(line)) return (this.problem = garbage(this.header));
        continue;
      }
      // the empty line ends the header block
      const length = /(?:^|\r\n)content-length:[ \t]*([^\r\n]*)/i.exec(this.header)?.[1]?.trim();
      this.header = '';
      if (length === undefined) return (this.problem = 'sent a message without a Content-Length header');
      if (!/^\d+$/.test(length))
        return (this.problem = `announced a message length that is not a number: ${JSON.stringify(length.slice(0, 40))}`);
      const bytes = Number(length);
      if (bytes > MAX_MESSAGE_BYTES)
        return (this.problem = `announced an impossible message length of ${length} bytes (at most ${MAX_MESSAGE_BYTES} are accepted)`);
      this.bodyLeft = bytes;
    }
    return undefined;
  }
}

function garbage(text: string): string {
  const shown = text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim()
    .slice(0, 60);
  return `wrote ${JSON.stringify(shown)} instead of an LSP message header (is it started in stdio mode?)`;
}
