/**
 * HTML → markdown or plain text for the `fetch` tool, with turndown, run in a worker thread under a
 * deadline.
 *
 * Why a worker: turndown is synchronous and its cost grows faster than the input on nested markup
 * (measured: 1 MB of ordinary HTML ≈ 1–4 s; 20,000 nested `<div>`s, 120 KB, ≈ 16 s before it gives
 * up with a stack overflow). In the main thread that would freeze the agent and ignore both the
 * fetch timeout and cancel; a worker can be terminated at the deadline.
 *
 * Also why the input is trimmed first ({@link prepareHtml}): script, style and similar elements
 * are dropped in a linear scan and the rest is cut at {@link HTML_CONVERT_MAX_CHARS}, since the
 * model sees at most 100,000 characters of the result anyway.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type TurndownService from 'turndown';
import { abortError } from '../abort.js';

/** What {@link convertHtml} produces. */
export type HtmlTarget = 'markdown' | 'text';

/** At most this many characters of (trimmed) HTML are converted. */
export const HTML_CONVERT_MAX_CHARS = 1_000_000;

/** Elements whose content is never text a reader sees; dropped before conversion. */
const NON_CONTENT_ELEMENTS = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object'];

/** HTML ready for the converter, and how much of the original was cut. */
export interface PreparedHtml {
  html: string;
  /** characters of the HTML after stripping, before the cut */
  strippedChars: number;
  /** true when the stripped HTML was longer than the limit and cut */
  cut: boolean;
}

/**
 * Drops comments and non-content elements ({@link NON_CONTENT_ELEMENTS}) in one linear pass, then
 * cuts the rest at `maxChars`. An element left open runs to the end of the document, as a browser
 * reads an unclosed `<script>`.
 */
export function prepareHtml(html: string, maxChars = HTML_CONVERT_MAX_CHARS): PreparedHtml {
  const opener = new RegExp(`<!--|<(${NON_CONTENT_ELEMENTS.join('|')})(?=[\\s/>])`, 'gi');
  const parts: string[] = [];
  let position = 0;
  for (let match = opener.exec(html); match; match = opener.exec(html)) {
    parts.push(html.slice(position, match.index));
    let end: number;
    if (match[0] === '<!--') {
      const close = html.indexOf('-->', match.index + 4);
      end = close === -1 ? html.length : close + 3;
    } else {
      const closer = new RegExp(`</${match[1]}\\s*>`, 'gi');
      closer.lastIndex = match.index + match[0].length;
      const close = closer.exec(html);
      end = close ? close.index + close[0].length : html.length;
    }
    position = end;
    opener.lastIndex = end;
  }
  parts.push(html.slice(position));
  const stripped = parts.join('');
  if (stripped.length <= maxChars) return { html: stripped, strippedChars: stripped.length, cut: false };
  return { html: stripped.slice(0, maxChars), strippedChars: stripped.length, cut: true };
}

/** Thrown by {@link convertHtml} when the deadline passes first. */
export class ConversionTimeoutError extends Error {
  constructor() {
    super('HTML conversion did not finish in time');
    this.name = 'ConversionTimeoutError';
  }
}

/** Thrown by {@link convertHtml} when turndown fails (e.g. a document nested too deeply). */
export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

export interface ConvertOptions {
  /** links and images are made absolute against this URL */
  baseUrl: string;
  /** the worker is terminated after this many milliseconds */
  timeoutMs: number;
  /** terminates the worker at once */
  signal: AbortSignal;
}

/**
 * Converts `html` to markdown (atx headings, fenced code, GFM tables, absolute links) or to plain
 * text (paragraphs and line breaks kept, whitespace collapsed) in a worker thread.
 * Rejects with {@link ConversionTimeoutError}, {@link ConversionError}, or an AbortError on `signal`.
 */
export function convertHtml(html: string, target: HtmlTarget, options: ConvertOptions): Promise<string> {
  if (options.signal.aborted) return Promise.reject(abortError());
  const worker = takeWorker();
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void, reuse: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) returnWorker(worker);
      else void worker.terminate();
      outcome();
    };
    const onMessage = (reply: { ok: true; text: string } | { ok: false; error: string }) =>
      finish(() => (reply.ok ? resolve(reply.text) : reject(conversionError(reply.error))), true);
    const onError = (err: Error) => finish(() => reject(conversionError(err.message)), false);
    const onExit = (code: number) =>
      finish(() => reject(new ConversionError(`the converter stopped (exit code ${code})`)), false);
    const onAbort = () => finish(() => reject(abortError()), false);
    const timer = setTimeout(() => finish(() => reject(new ConversionTimeoutError()), false), options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ html, target, baseUrl: options.baseUrl });
  });
}

function conversionError(message: string): ConversionError {
  if (/call stack/i.test(message)) return new ConversionError('the document nests elements too deeply to convert');
  if (/out of memory|heap/i.test(message)) return new ConversionError('the converter ran out of memory');
  return new ConversionError(message);
}

// One warm worker is kept between calls (starting one costs a few hundred ms on a slow machine)
// for a minute; concurrent conversions each get their own, and the extras end when done. The idle
// worker is unref'd so it never keeps the process alive.
const IDLE_WORKER_MS = 60_000;
let idleWorker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;

function takeWorker(): Worker {
  clearTimeout(idleTimer);
  const worker = idleWorker ?? startWorker();
  idleWorker = undefined;
  worker.ref();
  return worker;
}

function returnWorker(worker: Worker): void {
  if (idleWorker) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idleWorker = worker;
  idleTimer = setTimeout(() => {
    if (idleWorker === worker) idleWorker = undefined;
    void worker.terminate();
  }, IDLE_WORKER_MS).unref();
}

function startWorker(): Worker {
  const turndownPath = createRequire(import.meta.url).resolve('turndown');
  // The worker is given source text (not a file) so that it works the same from src/ under tsx
  // or vitest and from the esbuild bundle in dist/, which has no separate worker entry point.
  // `__name` is the helper esbuild inserts when it keeps function names (tsx does): a no-op here.
  const source = `'use strict';
const __name = (target) => target;
const { parentPort } = require('node:worker_threads');
const TurndownService = require(${JSON.stringify(turndownPath)});
const convert = ${convertDocument.toString()};
parentPort.on('message', (job) => {
  let reply;
  try {
    reply = { ok: true, text: convert(TurndownService, job.html, job.target, job.baseUrl) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(reply);
});`;
  const worker = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
  worker.on('exit', () => {
    if (idleWorker === worker) idleWorker = undefined;
  });
  return worker;
}

/** The DOM surface the rules below use (domino's nodes, as turndown hands them over). */
interface DomNode {
  nodeName: string;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
}

/**
 * The conversion itself. It runs inside the worker and is sent there as source text, so it must not
 * use anything from outside its own body (no imports, no module constants): only its parameters
 * and JavaScript built-ins.
 */
function convertDocument(Turndown: typeof TurndownService, html: string, target: HtmlTarget, baseUrl: string): string {
  const absolute = (href: string): string => {
    try {
      return new URL(href, baseUrl).href;
    } catch {
      return href;
    }
  };
  const linkDestination = (href: string): string => {
    const escaped = href.replace(/([<>()])/g, '\\$1');
    return escaped.includes(' ') ? `<${escaped}>` : escaped;
  };
  const removed = [
    'script',
    'style',
    'noscript',
    'template',
    'svg',
    'canvas',
    'iframe',
    'object',
    'embed',
    'head',
    'title',
  ] as const;
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', hr: '---', bulletListMarker: '-' });
  const node = (n: unknown) => n as DomNode;

  if (target === 'text') {
    const blocks = new Set([
      'ADDRESS',
      'ARTICLE',
      'ASIDE',
      'BLOCKQUOTE',
      'BODY',
      'CAPTION',
      'CENTER',
      'DD',
      'DETAILS',
      'DIALOG',
      'DIV',
      'DL',
      'DT',
      'FIELDSET',
      'FIGCAPTION',
      'FIGURE',
      'FOOTER',
      'FORM',
      'H1',
      'H2',
      'H3',
      'H4',
      'H5',
      'H6',
      'HEADER',
      'HGROUP',
      'HR',
      'HTML',
      'MAIN',
      'MENU',
      'NAV',
      'OL',
      'P',
      'SECTION',
      'SUMMARY',
      'TABLE',
      'UL',
    ]);
    const removedNames = new Set(removed.map((name) => name.toUpperCase()));
    // text nodes are taken as they are: no markdown escaping
    service.escape = (text: string) => text;
    // one catch-all rule: added rules take precedence over remove(), so removal happens here too
    service.addRule('plainText', {
      filter: () => true,
      replacement: (content, element) => {
        const name = node(element).nodeName;
        if (removedNames.has(name)) return '';
        if (name === 'BR') return '\n';
        if (name === 'PRE') return `\n\n${(node(element).textContent ?? '').replace(/\n$/, '')}\n\n`;
        if (name === 'LI' || name === 'TR') return `\n${content.trim()}\n`;
        if (name === 'TD' || name === 'TH') return `${content.trim()}\t`;
        if (blocks.has(name)) return `\n\n${content}\n\n`;
        return content;
      },
    });
    return service
      .turndown(html)
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }

  // `svg` is no HTML tag name to @types/turndown once DOM types are in the program (the TUI's libraries bring them)
  service.remove([...removed] as unknown as TurndownService.Filter);
  service.addRule('absoluteLink', {
    filter: (element) => node(element).nodeName === 'A' && !!node(element).getAttribute('href'),
    replacement: (content, element) => {
      const href = (node(element).getAttribute('href') ?? '').trim();
      if (!content.trim()) return ''; // icon-only links
      if (href.startsWith('#') || /^javascript:/i.test(href)) return content;
      const title = (node(element).getAttribute('title') ?? '').replace(/(\n+\s*)+/g, '\n').replace(/"/g, '\\"');
      return `[${content}](${linkDestination(absolute(href))}${title ? ` "${title}"` : ''})`;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, element) => {
      const alt = (node(element).getAttribute('alt') ?? '').replace(/(\n+\s*)+/g, '\n').replace(/([\\[\]])/g, '\\$1');
      const src = (node(element).getAttribute('src') ?? '').trim();
      if (!src) return '';
      // an inline data: image can be megabytes of base64 that no reader wants
      if (/^data:/i.test(src)) return alt ? `![${alt}]` : '';
      return `![${alt}](${linkDestination(absolute(src))})`;
    },
  });
  // GFM tables: turndown's core has none (its gfm plugin is a separate package)
  const cells = (row: DomNode) => Array.from(row.childNodes).filter((c) => c.nodeName === 'TH' || c.nodeName === 'TD');
  const tableOf = (row: DomNode) => {
    let at = row.parentNode;
    while (at && at.nodeName !== 'TABLE') at = at.parentNode;
    return at;
  };
  const firstRow = (table: DomNode): DomNode | undefined => {
    for (const child of Array.from(table.childNodes)) {
      if (child.nodeName === 'TR') return child;
      if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') {
        const row = Array.from(child.childNodes).find((c) => c.nodeName === 'TR');
        if (row) return row;
      }
    }
    return undefined;
  };
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, element) => {
      const row = node(element).parentNode;
      const first = row ? cells(row)[0] === node(element) : true;
      const text = content
        .trim()
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|');
      return `${first ? '| ' : ' '}${text} |`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, element) => {
      const row = node(element);
      const table = tableOf(row);
      if (!table || firstRow(table) !== row) return `\n${content}`;
      const separator = `|${' --- |'.repeat(Math.max(1, cells(row).length))}`;
      return `\n${content}\n${separator}`;
    },
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (content) => `\n\n${content.replace(/\n+/g, '\n').trim()}\n\n`,
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  // turndown trims leading newlines but not a space left by a dropped element (e.g. an icon link)
  return service.turndown(html).replace(/^\s+/, '');
}
