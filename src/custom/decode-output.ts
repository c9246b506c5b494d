/**
 * A declarative tool's process output as text: bytes in any encoding decoded with the
 * file tools' detection. Apart from `output.ts` because the detection (chardet, iconv-lite) costs
 * ~25 ms to load, which a listing of the tools (`opencode stats`) should not pay.
 */
import { decodeDocument } from '../tools/text-document.js';

/**
 * Decodes a process's output: UTF-8, UTF-16 with a BOM, or a legacy encoding (GBK, Shift_JIS,
 * Windows-1252, …) as the view tool would read a file of those bytes (`tools/text-document.ts`).
 * Bytes nothing decodes exactly (binary) fall back to UTF-8 with replacement characters: output is
 * shown, never refused. Line endings become `\n`.
 */
export function decodeOutput(bytes: Buffer): string {
  if (bytes.length === 0) return '';
  try {
    return decodeDocument('(tool output)', bytes).text;
  } catch {
    return bytes.toString('utf8').replace(/\r\n?/g, '\n');
  }
}
