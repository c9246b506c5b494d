/**
 * `sourcegraph`: code search across public repositories through Sourcegraph's GraphQL API
 * (as the original), with `count` honoured (the original ignored it), a configurable endpoint
 * for self-hosted instances, and network failures reported at once as errors.
 *
 * Also fixed from the original: Sourcegraph's `lineNumber` is 0-based (its GraphQL schema), which
 * the original read as 1-based, so it printed the matching line twice and one number off; GraphQL
 * errors are error results; file URLs are made absolute.
 */
import { z } from 'zod';
import {
  ACCEPT_ENCODING,
  BodyTooLargeError,
  formatBytes,
  readBodyLimited,
  RequestDeadline,
  sendRequest,
  USER_AGENT,
} from './http-request.js';
import { defineTool, ToolError, type ToolResult } from './tool.js';

const DESCRIPTION = `Search code in public repositories (GitHub, GitLab…) with Sourcegraph, or in the self-hosted instance set in the config. Use it to see how an API or library is used in real projects, or to find an implementation to learn from. To search this project use grep.

Query syntax (terms are ANDed; no regex unless in /slashes/):
- repo:^github\\.com/golang/go$ limits to repositories (regex); -repo:x excludes
- file:\\.go$ or file:internal/ limits to paths; -file:test excludes
- lang:typescript limits to a language
- type:symbol finds definitions; type:path matches file names; type:diff and type:commit search history
- "exact phrase" in quotes; /fmt\\.Print(f|ln)/ as a regular expression
- AND, OR, NOT and parentheses: (alpine OR ubuntu) NOT slim
- count:50 asks the server for more results; case:yes is case-sensitive
Example: lang:go repo:kubernetes/kubernetes context.WithTimeout

The query is sent to that server, so the user is asked before it is sent (once a session when they allow it for the session).

count (default 10, max 20) limits the results shown; context_window (default 10) is the lines shown around each match. Each result is "## Result N: repo/path", its URL, and numbered lines "N| text", the matching ones "N|> text".`;

/** The public instance's endpoint (the original's only endpoint). */
export const DEFAULT_SOURCEGRAPH_URL = 'https://sourcegraph.com/.api/graphql';

export const SOURCEGRAPH_DEFAULT_COUNT = 10;
export const SOURCEGRAPH_MAX_COUNT = 20;
export const SOURCEGRAPH_DEFAULT_CONTEXT_LINES = 10;
export const SOURCEGRAPH_DEFAULT_TIMEOUT_SECONDS = 30;
export const SOURCEGRAPH_MAX_TIMEOUT_SECONDS = 120;
/** Results stop being added past this many characters of output (a note says which were left out). */
export const SOURCEGRAPH_MAX_OUTPUT_CHARS = 40_000;
/** Longer lines (minified code) are cut to this many characters and get `...`. */
const MAX_LINE_CHARS = 500;
/** Largest response read: each result carries its whole file. */
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

/** The search request, with the fields the original asked for. */
const SEARCH_QUERY = `query Search($query: String!) {
  search(query: $query, version: V2, patternType: keyword) {
    results {
      matchCount
      resultCount
      limitHit
      results {
        __typename
        ... on FileMatch {
          repository { name }
          file { path url content }
          lineMatches { preview lineNumber offsetAndLengths }
        }
      }
    }
  }
}`;

const parameters = z.object({
  query: z.string().trim().min(1, 'must not be empty').describe('The Sourcegraph search query'),
  count: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Number of results to show (default ${SOURCEGRAPH_DEFAULT_COUNT}, max ${SOURCEGRAPH_MAX_COUNT})`),
  context_window: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Lines of context shown before and after each match (default ${SOURCEGRAPH_DEFAULT_CONTEXT_LINES})`),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(
      `Timeout in seconds (default ${SOURCEGRAPH_DEFAULT_TIMEOUT_SECONDS}, max ${SOURCEGRAPH_MAX_TIMEOUT_SECONDS})`,
    ),
});

export const sourcegraphTool = defineTool({
  name: 'sourcegraph',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // the query is the model's text sent to a server: asked with the endpoint, as fetch asks with its URL
  readOnly: true,
  maxOutputChars: SOURCEGRAPH_MAX_OUTPUT_CHARS + 2_000,
  async run(input, ctx) {
    const endpoint = endpointUrl(ctx.sourcegraphUrl);
    const count = Math.min(input.count ?? SOURCEGRAPH_DEFAULT_COUNT, SOURCEGRAPH_MAX_COUNT);
    const contextLines = input.context_window ?? SOURCEGRAPH_DEFAULT_CONTEXT_LINES;
    const timeoutSeconds = Math.min(
      input.timeout ?? SOURCEGRAPH_DEFAULT_TIMEOUT_SECONDS,
      SOURCEGRAPH_MAX_TIMEOUT_SECONDS,
    );

    // the query leaves the machine: the person sees it first; "allow for session" covers the endpoint's host
    await ctx.askPermission(
      {
        action: 'search',
        description: `Send a code search to ${endpoint.host}: ${input.query}`,
        params: { query: input.query, url: endpoint.href },
        path: ctx.cwd,
      },
      { kind: 'url', url: endpoint.href },
    );

    const deadline = new RequestDeadline(timeoutSeconds * 1000, ctx.signal);
    const timeoutMessage = `Sourcegraph search timed out after ${timeoutSeconds === 1 ? '1 second' : `${timeoutSeconds} seconds`} (${endpoint.href}).`;
    let body: Buffer;
    try {
      const response = await sendRequest(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Accept-Encoding': ACCEPT_ENCODING,
          'User-Agent': USER_AGENT,
        },
        body: JSON.stringify({ query: SEARCH_QUERY, variables: { query: input.query } }),
        signal: deadline.signal,
      });
      if (response.status !== 200) {
        const excerpt = await readBodyLimited(response.body, 64 * 1024, deadline.signal)
          .then((bytes) => bytes.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 500))
          .catch(() => '');
        throw new ToolError(
          `Sourcegraph request failed with status code: ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${excerpt ? `, response: ${excerpt}` : ''}`,
        );
      }
      body = await readBodyLimited(response.body, MAX_RESPONSE_BYTES, deadline.signal);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        throw new ToolError(
          `Sourcegraph's response is larger than ${formatBytes(err.limitBytes)}. Narrow the query (repo:, file:, lang:) or lower count: in it.`,
        );
      }
      throw deadline.explain(err, endpoint, timeoutMessage);
    } finally {
      deadline.dispose();
    }

    let response: unknown;
    try {
      response = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ToolError(`Sourcegraph returned a response that is not JSON: ${body.toString('utf8').slice(0, 200)}`);
    }
    return formatSearchResults(response, { count, contextLines, baseUrl: endpoint });
  },
});

/** The endpoint from the config value, or the public one. An instance URL without a path gets `/.api/graphql`. */
function endpointUrl(configured: string | undefined): URL {
  const text = configured?.trim() ? configured.trim() : DEFAULT_SOURCEGRAPH_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`The sourcegraph.url setting is not a valid URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`The sourcegraph.url setting must be an http or https URL: ${JSON.stringify(text)}`);
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/.api/graphql';
  return url;
}

/** The parts of Sourcegraph's response read here (everything optional: a server may leave any out). */
interface SearchResponse {
  errors?: { message?: string }[];
  data?: {
    search?: {
      results?: {
        matchCount?: number;
        resultCount?: number;
        limitHit?: boolean;
        results?: SearchResult[];
      };
    } | null;
  } | null;
}

interface SearchResult {
  __typename?: string;
  repository?: { name?: string };
  file?: { path?: string; url?: string; content?: string };
  lineMatches?: { preview?: string; lineNumber?: number; offsetAndLengths?: number[][] }[];
}

/**
 * Renders a GraphQL search response as the original's markdown: a header with the
 * counts, then up to `count` file matches, each with its matches in fenced blocks of numbered lines.
 * GraphQL errors give an error result listing them.
 */
export function formatSearchResults(
  response: unknown,
  options: { count: number; contextLines: number; baseUrl: URL },
): ToolResult {
  const parsed = (response ?? {}) as SearchResponse;
  if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
    const messages = parsed.errors.map((error) => `- ${error?.message ?? JSON.stringify(error)}`);
    return { output: `## Sourcegraph API Error\n\n${messages.join('\n')}\n`, isError: true };
  }
  const results = parsed.data?.search?.results;
  if (!results) throw new ToolError('Unexpected response from Sourcegraph: it has no data.search.results field.');

  const matchCount = results.matchCount ?? 0;
  const resultCount = results.resultCount ?? 0;
  const fileMatches = (results.results ?? []).filter((r) => r?.__typename === 'FileMatch' && r.repository && r.file);
  const shown = fileMatches.slice(0, options.count);

  let output = `# Sourcegraph Search Results\n\nFound ${matchCount} matches across ${resultCount} results\n`;
  if (results.limitHit) output += '(Result limit reached, try a more specific query)\n';
  output += '\n';
  const metadata = { matchCount, resultCount, limitHit: !!results.limitHit, resultsShown: 0, truncated: false };
  if (shown.length === 0) {
    return { output: `${output}No results found. Try a different query.\n`, isError: false, metadata };
  }
  if (shown.length < fileMatches.length)
    output += `(Showing the first ${shown.length} of ${fileMatches.length} results)\n\n`;

  for (const [index, match] of shown.entries()) {
    const section = formatFileMatch(index + 1, match, options);
    if (index > 0 && output.length + section.length > SOURCEGRAPH_MAX_OUTPUT_CHARS) {
      output += `(Output limit reached: results ${index + 1}–${shown.length} are not shown. Lower count or context_window, or narrow the query.)\n`;
      metadata.truncated = true;
      break;
    }
    output += section;
    metadata.resultsShown = index + 1;
  }
  return { output, isError: false, metadata };
}

/** One `## Result i` section: heading, URL, and the match blocks. */
function formatFileMatch(
  position: number,
  match: SearchResult,
  options: { contextLines: number; baseUrl: URL },
): string {
  const repo = match.repository?.name ?? '';
  const path = match.file?.path ?? '';
  let section = `## Result ${position}: ${repo}/${path}\n\n`;
  const url = match.file?.url;
  if (url) section += `URL: ${absoluteUrl(url, options.baseUrl)}\n\n`;
  for (const block of matchBlocks(match, options.contextLines)) section += `\`\`\`\n${block.join('\n')}\n\`\`\`\n\n`;
  return section;
}

/**
 * The fenced blocks of one file: each match with `contextLines` lines around it, overlapping or
 * touching windows merged, lines as `N| text` and matching lines as `N|> text` (1-based numbers).
 * Without the file content, each match is shown by its preview alone.
 */
export function matchBlocks(match: SearchResult, contextLines: number): string[][] {
  const matches = (match.lineMatches ?? []).filter((m) => typeof m?.lineNumber === 'number');
  const content = match.file?.content ?? '';
  const lines =
    content === ''
      ? []
      : content
          .replace(/\r?\n$/, '')
          .split('\n')
          .map((line) => line.replace(/\r$/, ''));
  const matched = new Set(matches.map((m) => m.lineNumber as number));

  const blocks: string[][] = [];
  let window: { start: number; end: number } | undefined;
  const flush = () => {
    if (!window) return;
    const block: string[] = [];
    for (let i = window.start; i <= window.end; i++) block.push(numbered(i, lines[i], matched.has(i)));
    blocks.push(block);
    window = undefined;
  };
  const byLine = [...matches].sort((a, b) => (a.lineNumber as number) - (b.lineNumber as number));
  for (const m of byLine) {
    const line = m.lineNumber as number; // 0-based in Sourcegraph's API
    if (line >= lines.length) {
      // no content (or a stale one): the preview is all there is
      flush();
      blocks.push([numbered(line, m.preview ?? '', true)]);
      continue;
    }
    const start = Math.max(0, line - contextLines);
    const end = Math.min(lines.length - 1, line + contextLines);
    if (window && start <= window.end + 1) window.end = Math.max(window.end, end);
    else {
      flush();
      window = { start, end };
    }
  }
  flush();
  return blocks;
}

function numbered(index: number, text: string, isMatch: boolean): string {
  const cut = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}...` : text;
  return `${index + 1}|${isMatch ? '>' : ''} ${cut}`;
}

/** Sourcegraph gives file URLs relative to the instance (`/github.com/…/-/blob/…`). */
function absoluteUrl(url: string, base: URL): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}
