/**
 * `fetch`: GET a URL and give the model its content as markdown, text or raw HTML (as the
 * original), fixed: the output is capped at 100,000 characters (the original put up to
 * 5 MB in the context), every failure has its own message, binary bodies are refused by type, and
 * one deadline covers the download and the conversion. After redirects the output names
 * the final URL (relative links and "this page" refer to it), and a page over the size limit gives its
 * first part with a note of what was cut (the person asked for the page, not for an error).
 */
import { z } from 'zod';
import {
  convertHtml,
  ConversionError,
  ConversionTimeoutError,
  HTML_CONVERT_MAX_CHARS,
  prepareHtml,
} from './html-convert.js';
import {
  ACCEPT_ENCODING,
  discardBody,
  formatBytes,
  readBodyPrefix,
  RequestDeadline,
  sendRequest,
  USER_AGENT,
  type HttpResponse,
} from './http-request.js';
import { defineTool, ToolError } from './tool.js';

const DESCRIPTION = `Fetch a URL and return its content as markdown, plain text or raw HTML. Use it to read documentation, an API reference, a changelog or any page the user points to. Not for searching the web (it needs an exact URL) and not for files in this project (use view).

- url: must start with http:// or https://.
- format: "markdown" (HTML converted to markdown with headings, lists, tables, code blocks and absolute links; best for most pages), "text" (only the readable text; scripts and styles dropped), or "html" (the raw markup). JSON is pretty-printed; other text comes back as it is.
- timeout: seconds for the whole fetch, conversion included (default 30, max 120).

Limits: up to 5 redirects are followed (the output then starts by naming the final URL); of a response over 5 MB only the first 5 MB are read (a note says so); images, audio, video, PDFs, archives and other binary types are refused; the output is cut after 100,000 characters (a note says how much was left out). Every fetch asks the user for permission.`;

/** Largest body read, in bytes (the original's limit). */
export const FETCH_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Characters of content given to the model. */
export const FETCH_MAX_OUTPUT_CHARS = 100_000;
/** Redirects followed before giving up. */
export const FETCH_MAX_REDIRECTS = 5;
export const FETCH_DEFAULT_TIMEOUT_SECONDS = 30;
export const FETCH_MAX_TIMEOUT_SECONDS = 120;

/** Asked for every request: HTML first, then the text types this tool renders. */
const ACCEPT =
  'text/html, application/xhtml+xml, text/markdown;q=0.9, text/plain;q=0.9, application/json;q=0.9, */*;q=0.8';

type BodyKind = 'html' | 'json' | 'markdown' | 'text' | 'binary';

/**
 * How a body is treated, by media type. An entry starting with `+` matches a suffix, one ending in
 * `/`, `.` or `-` a prefix, any other the whole type. The first match wins; a type matching none is
 * sniffed (NUL bytes mean binary).
 */
const MEDIA_TYPE_RULES: readonly (readonly [pattern: string, kind: BodyKind])[] = [
  ['image/svg+xml', 'text'], // SVG is XML source, useful as text; other images are not
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['text/markdown', 'markdown'],
  ['text/x-markdown', 'markdown'],
  ['application/json', 'json'],
  ['text/json', 'json'],
  ['+json', 'json'], // application/ld+json, application/problem+json, application/vnd.api+json
  ['image/', 'binary'],
  ['audio/', 'binary'],
  ['video/', 'binary'],
  ['font/', 'binary'],
  ['model/', 'binary'],
  ['application/octet-stream', 'binary'],
  ['application/pdf', 'binary'],
  ['application/zip', 'binary'],
  ['application/gzip', 'binary'],
  ['application/x-gzip', 'binary'],
  ['application/x-tar', 'binary'],
  ['application/x-bzip2', 'binary'],
  ['application/x-xz', 'binary'],
  ['application/zstd', 'binary'],
  ['application/x-7z-compressed', 'binary'],
  ['application/vnd.rar', 'binary'],
  ['application/x-rar-compressed', 'binary'],
  ['application/wasm', 'binary'],
  ['application/java-archive', 'binary'],
  ['application/x-msdownload', 'binary'],
  ['application/x-executable', 'binary'],
  ['application/x-mach-binary', 'binary'],
  ['application/x-apple-diskimage', 'binary'],
  ['application/vnd.android.package-archive', 'binary'],
  ['application/msword', 'binary'],
  ['application/vnd.ms-', 'binary'], // Excel, PowerPoint, fonts
  ['application/vnd.openxmlformats-', 'binary'], // .docx, .xlsx, .pptx
  ['application/vnd.oasis.opendocument.', 'binary'],
  ['application/protobuf', 'binary'],
  ['application/x-protobuf', 'binary'],
  ['application/grpc', 'binary'],
  ['application/x-sqlite3', 'binary'],
  ['application/vnd.sqlite3', 'binary'],
  ['text/', 'text'],
  ['+xml', 'text'], // RSS, Atom, XHTML fragments
  ['application/xml', 'text'],
  ['application/javascript', 'text'],
  ['application/x-javascript', 'text'],
  ['application/ecmascript', 'text'],
  ['application/typescript', 'text'],
  ['application/x-sh', 'text'],
  ['application/yaml', 'text'],
  ['application/x-yaml', 'text'],
  ['application/toml', 'text'],
  ['application/sql', 'text'],
  ['application/graphql', 'text'],
  ['application/x-ndjson', 'text'],
  ['application/x-www-form-urlencoded', 'text'],
];

/** The kind of a media type (lower case, no parameters), or undefined when unknown. */
export function classifyMediaType(mediaType: string): BodyKind | undefined {
  for (const [pattern, kind] of MEDIA_TYPE_RULES) {
    if (
      pattern.startsWith('+')
        ? mediaType.endsWith(pattern)
        : /[/.-]$/.test(pattern)
          ? mediaType.startsWith(pattern)
          : mediaType === pattern
    ) {
      return kind;
    }
  }
  return undefined;
}

const parameters = z.object({
  url: z.string().min(1, 'must not be empty').describe('The URL to fetch (http:// or https://)'),
  format: z
    .enum(['text', 'markdown', 'html'])
    .describe('The format to return the content in: "markdown" (usually best), "text" or "html"'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(
      `Timeout in seconds for the whole fetch (default ${FETCH_DEFAULT_TIMEOUT_SECONDS}, max ${FETCH_MAX_TIMEOUT_SECONDS})`,
    ),
});

type FetchFormat = z.infer<typeof parameters>['format'];

export const fetchTool = defineTool({
  name: 'fetch',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // asks with what it touches before it changes anything
  readOnly: true,
  // the tool cuts its own output at FETCH_MAX_OUTPUT_CHARS and adds a note; the kernel must not cut again
  maxOutputChars: FETCH_MAX_OUTPUT_CHARS + 1_000,
  async run(input, ctx) {
    const url = parseHttpUrl(input.url);
    const timeoutSeconds = Math.min(input.timeout ?? FETCH_DEFAULT_TIMEOUT_SECONDS, FETCH_MAX_TIMEOUT_SECONDS);
    await ctx.askPermission(
      {
        action: 'fetch',
        description: `Fetch content from URL: ${url.href}`,
        params: { url: url.href, format: input.format, timeout: timeoutSeconds },
        path: ctx.cwd,
      },
      { kind: 'url', url: url.href },
    );

    // the clock starts once permission is given: the person's reading time is not the server's
    const deadline = new RequestDeadline(timeoutSeconds * 1000, ctx.signal);
    let phase: 'request' | 'body' | 'convert' = 'request';
    let received = 0;
    let requested = url; // the hop a network error belongs to, after redirects
    const timeoutMessage = () => {
      const during =
        phase === 'request'
          ? 'no response arrived'
          : phase === 'body'
            ? `the response was still arriving, ${formatBytes(received)} received`
            : 'converting the HTML took the rest of the time; format "html" skips the conversion';
      return `Fetching ${url.href} timed out after ${seconds(timeoutSeconds)} (${during}).`;
    };
    try {
      const { response, finalUrl, redirects } = await getFollowingRedirects(
        url,
        deadline.signal,
        (hop) => (requested = hop),
      );
      if (response.status < 200 || response.status > 299) {
        discardBody(response.body);
        throw new ToolError(
          `Request failed with status code: ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (${finalUrl.href})`,
          { url: url.href, finalUrl: finalUrl.href, status: response.status },
        );
      }
      const contentType = headerValue(response.headers['content-type']);
      const mediaType = contentType.split(';')[0].trim().toLowerCase();
      let kind = classifyMediaType(mediaType);
      if (kind === 'binary') {
        discardBody(response.body);
        throw new ToolError(binaryRefusal(mediaType));
      }
      // the size on the wire; a compressed body's decoded size is unknown until read
      const declaredLength = response.headers['content-encoding']
        ? NaN
        : Number(headerValue(response.headers['content-length']));

      phase = 'body';
      const body = await readBodyPrefix(
        response.body,
        FETCH_MAX_RESPONSE_BYTES,
        deadline.signal,
        (n) => (received = n),
      );
      const { bytes } = body;
      const sniffed = sniffKind(bytes, kind);
      if (sniffed === 'binary') {
        throw new ToolError(binaryRefusal(mediaType, true));
      }
      kind = sniffed;
      const text = decodeBody(bytes, contentType, kind, !body.complete);

      phase = 'convert';
      const rendered = await render(text, kind, input.format, mediaType, finalUrl, deadline);
      const content =
        rendered.content.trim() === '' ? emptyContentNote(bytes.length, kind, response.status) : rendered.content;
      const downloadNote = body.complete ? '' : downloadCutNote(declaredLength);
      const capped = capOutput(content, rendered.htmlCut, downloadNote);
      const redirectNote =
        finalUrl.href === url.href
          ? ''
          : `[Fetched ${finalUrl.href} (${url.href} redirected there${redirects > 1 ? ` in ${redirects} steps` : ''}).]\n\n`;
      return {
        output: redirectNote + capped.output,
        isError: false,
        metadata: {
          url: url.href,
          finalUrl: finalUrl.href,
          redirects,
          status: response.status,
          contentType,
          format: input.format,
          bytes: bytes.length,
          complete: body.complete,
          truncated: capped.truncated,
        },
      };
    } catch (err) {
      if (err instanceof ConversionTimeoutError) throw new ToolError(timeoutMessage());
      if (err instanceof ConversionError) {
        throw new ToolError(
          `Could not convert the HTML of ${url.href} to ${input.format}: ${err.message}. Try format "html".`,
        );
      }
      throw deadline.explain(err, requested, timeoutMessage());
    } finally {
      deadline.dispose();
    }
  },
});

/** The URL if it is a valid http(s) URL; otherwise a ToolError saying what is wrong. */
function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ToolError(`Invalid URL: ${JSON.stringify(text)}. The URL must start with http:// or https://`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(
      `Unsupported URL scheme "${url.protocol.slice(0, -1)}" in ${text}: the URL must start with http:// or https://`,
    );
  }
  return url;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GETs `url`, following up to {@link FETCH_MAX_REDIRECTS} redirects; the final response's body is unread. */
async function getFollowingRedirects(
  url: URL,
  signal: AbortSignal,
  onRequest: (url: URL) => void,
): Promise<{ response: HttpResponse; finalUrl: URL; redirects: number }> {
  const chain = [url];
  for (;;) {
    const current = chain[chain.length - 1];
    onRequest(current);
    const response = await sendRequest(current, {
      headers: { 'User-Agent': USER_AGENT, Accept: ACCEPT, 'Accept-Encoding': ACCEPT_ENCODING },
      signal,
    });
    const location = headerValue(response.headers.location);
    if (!REDIRECT_STATUSES.has(response.status) || !location) {
      return { response, finalUrl: current, redirects: chain.length - 1 };
    }
    discardBody(response.body);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new ToolError(`${current.href} redirected to an invalid URL: ${JSON.stringify(location)}`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ToolError(`${current.href} redirected to ${next.href}, which is not an http or https URL.`);
    }
    chain.push(next);
    if (chain.length - 1 > FETCH_MAX_REDIRECTS) {
      const hops = chain.map((u) => u.href).join(' → ');
      throw new ToolError(
        `Too many redirects: ${url.href} redirected ${chain.length - 1} times, more than the ${FETCH_MAX_REDIRECTS} followed (${hops}).`,
      );
    }
  }
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function binaryRefusal(mediaType: string, sniffed = false): string {
  const why = sniffed
    ? `the body holds NUL bytes, so it is binary even though it is labelled ${mediaType || 'with no type'}`
    : 'binary content cannot be shown as text';
  return `Refused to fetch ${sniffed ? 'the' : mediaType} content: ${why}. fetch returns web pages, JSON and other text.`;
}

/** What was left undownloaded, e.g. `only the first 5 MB of 12,582,912 bytes (by its Content-Length) were downloaded`. */
function downloadCutNote(declaredLength: number): string {
  const total =
    Number.isFinite(declaredLength) && declaredLength > FETCH_MAX_RESPONSE_BYTES
      ? ` of ${count(declaredLength)} bytes (by its Content-Length)`
      : ' (the page is larger; its full size was not given)';
  return `only the first ${formatBytes(FETCH_MAX_RESPONSE_BYTES)}${total} were downloaded, the limit of fetch`;
}

/** Said instead of nothing, so the model knows the fetch worked and why there is no content. */
function emptyContentNote(bodyBytes: number, kind: BodyKind, status: number): string {
  if (bodyBytes === 0) return `(The response, status ${status}, has an empty body.)`;
  if (kind === 'html') {
    return '(The page has no text without running its JavaScript: it is probably rendered by scripts. Format "html" shows its markup.)';
  }
  return '(The response body holds only whitespace.)';
}

/** Bytes at the start examined for NUL bytes (git looks at the first 8000). */
const SNIFF_BYTES = 8000;

/** The body's kind after looking at its bytes: NUL bytes mean binary; an untyped body may be HTML. */
function sniffKind(bytes: Buffer, declared: BodyKind | undefined): BodyKind {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const utf16 = head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  if (!utf16 && head.includes(0)) return 'binary';
  if (declared) return declared;
  return /^\s*(<!doctype html|<html)/i.test(head.toString('latin1')) ? 'html' : 'text';
}

/**
 * The body as text: a byte order mark wins, then the Content-Type charset, then (HTML) a
 * `<meta charset>` near the start; UTF-8 otherwise and for any label the decoder does not know.
 */
function decodeBody(bytes: Buffer, contentType: string, kind: BodyKind, cut = false): string {
  let label = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (!label && kind === 'html') {
    const head = bytes.subarray(0, 2048).toString('latin1');
    label = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) label = 'utf-8';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  let text: string;
  try {
    text = new TextDecoder(label ?? 'utf-8').decode(bytes);
  } catch {
    text = new TextDecoder('utf-8').decode(bytes); // an unknown charset label
  }
  // a body cut at the size limit may end inside a character: drop the stand-in for its first bytes
  return cut && text.endsWith('\uFFFD') ? text.slice(0, -1) : text;
}

/** The content in the asked format, and whether the HTML was cut before conversion. */
async function render(
  text: string,
  kind: BodyKind,
  format: FetchFormat,
  mediaType: string,
  baseUrl: URL,
  deadline: RequestDeadline,
): Promise<{ content: string; htmlCut?: { convertedChars: number; totalChars: number } }> {
  if (format === 'html') return { content: text };
  if (kind === 'html') {
    const prepared = prepareHtml(text);
    const content = await convertHtml(prepared.html, format, {
      baseUrl: baseUrl.href,
      timeoutMs: deadline.remainingMs(),
      signal: deadline.signal,
    });
    const htmlCut = prepared.cut
      ? { convertedChars: HTML_CONVERT_MAX_CHARS, totalChars: prepared.strippedChars }
      : undefined;
    return { content, htmlCut };
  }
  if (kind === 'json') {
    const pretty = prettyJson(text);
    return { content: format === 'markdown' ? fence(pretty, 'json') : pretty };
  }
  if (format === 'text' || kind === 'markdown') return { content: text };
  return { content: fence(text, fenceLanguage(mediaType)) };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // not valid JSON after all: as it came
  }
}

/** `text` in a fenced code block whose fence is longer than any backtick run inside. */
function fence(text: string, language: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longestRun + 1));
  return `${marks}${language}\n${text.replace(/\n$/, '')}\n${marks}`;
}

/** A fence language from a media type: `text/css` → css, `text/x-python` → python; none for text/plain. */
function fenceLanguage(mediaType: string): string {
  if (!mediaType || mediaType === 'text/plain') return '';
  if (mediaType.endsWith('+xml')) return 'xml';
  const subtype = mediaType.slice(mediaType.indexOf('/') + 1).replace(/^x-/, '');
  return /^[a-z0-9+-]+$/.test(subtype) ? subtype : '';
}

/** Cuts `content` at {@link FETCH_MAX_OUTPUT_CHARS} and notes what was left out (`downloadNote`: what was never downloaded). */
function capOutput(
  content: string,
  htmlCut: { convertedChars: number; totalChars: number } | undefined,
  downloadNote = '',
): { output: string; truncated: boolean } {
  const htmlNote = [
    downloadNote,
    htmlCut
      ? `only the first ${count(htmlCut.convertedChars)} of ${count(htmlCut.totalChars)} characters of the page's HTML (scripts and styles removed) were converted`
      : '',
  ]
    .filter(Boolean)
    .join(', and ');
  if (content.length <= FETCH_MAX_OUTPUT_CHARS) {
    return { output: htmlNote ? `${content}\n\n[Output incomplete: ${htmlNote}.]` : content, truncated: !!htmlNote };
  }
  let end = FETCH_MAX_OUTPUT_CHARS;
  const last = content.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not split a surrogate pair
  const note = `[Output truncated: showing the first ${count(end)} of ${count(content.length)} characters; ${count(content.length - end)} characters were cut${htmlNote ? `, and ${htmlNote}` : ''}.]`;
  return { output: `${content.slice(0, end)}\n\n${note}`, truncated: true };
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function seconds(n: number): string {
  return n === 1 ? '1 second' : `${n} seconds`;
}
