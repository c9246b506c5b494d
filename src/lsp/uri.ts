/**
 * `file://` URIs for language servers. Paths are percent-encoded as RFC 3986 requires (spaces, `#`,
 * `%`, non-ASCII as UTF-8 bytes): the original built `"file://" + path` and broke on such paths.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

/** `/a b/é.ts` → `file:///a%20b/%C3%A9.ts` (absolute path in). */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The absolute path of a `file://` URI; undefined for another scheme or a malformed URI. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
