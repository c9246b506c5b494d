/**
 * sourcegraph against a loopback fake of the GraphQL endpoint: the request it sends, the markdown it
 * renders from a canned response (count honoured, context windows, 0-based line numbers), GraphQL
 * and HTTP errors, and failing fast when the endpoint is unreachable.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SOURCEGRAPH_MAX_OUTPUT_CHARS, sourcegraphTool } from '../../src/tools/sourcegraph.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let endpoint: string;
let origin: string;
const received: Recorded[] = [];
/** what the fake answers next: a status and a JSON body, or 'hang' */
let reply: { status: number; body: unknown } | 'hang';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = `${origin}/.api/graphql`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  received.length = 0;
});

function context(url = endpoint, signal?: AbortSignal): ToolContext {
  return { ...toolContext('/tmp', { signal }), sourcegraphUrl: url };
}

const SPIN_GO = [
  'package widgets',
  '',
  'import "context"',
  '',
  'func Spin(ctx context.Context) error {',
  '\tctx, cancel := context.WithTimeout(ctx, time.Second)',
  '\tdefer cancel()',
  '\treturn nil',
  '}',
  '',
].join('\n');

const THIRTY_LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');

function fileMatch(repo: string, path: string, content: string, lineNumbers: number[]) {
  const lines = content.split('\n');
  return {
    __typename: 'FileMatch',
    repository: { name: repo },
    file: { path, url: `/${repo}/-/blob/${path}`, content },
    lineMatches: lineNumbers.map((n) => ({ preview: lines[n] ?? '', lineNumber: n, offsetAndLengths: [[0, 4]] })),
  };
}

/** Five file matches and one repository match, as sourcegraph.com answers. */
const CANNED = {
  data: {
    search: {
      results: {
        matchCount: 9,
        resultCount: 6,
        limitHit: true,
        results: [
          fileMatch('github.com/acme/widgets', 'src/spin.go', SPIN_GO, [5]),
          { __typename: 'Repository', name: 'github.com/acme/other' },
          fileMatch('github.com/acme/lines', 'thirty.txt', THIRTY_LINES, [2, 4, 20]),
          fileMatch('github.com/acme/c', 'c.go', 'c1\nc2', [0]),
          fileMatch('github.com/acme/d', 'd.go', 'd1\nd2', [1]),
          fileMatch('github.com/acme/e', 'e.go', 'e1\ne2', [0]),
        ],
      },
    },
  },
};

describe('sourcegraph', () => {
  it('POSTs the GraphQL search query with the query as a variable', async () => {
    reply = { status: 200, body: CANNED };
    await runTool(sourcegraphTool, { query: 'lang:go context.WithTimeout' }, context());
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/.api/graphql');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^opencode\/\S+$/);
    const sent = JSON.parse(request.body) as { query: string; variables: { query: string } };
    expect(sent.variables).toEqual({ query: 'lang:go context.WithTimeout' });
    expect(sent.query).toContain('search(query: $query, version: V2, patternType: keyword)');
    for (const field of [
      'matchCount',
      'resultCount',
      'limitHit',
      '... on FileMatch',
      'repository { name }',
      'file { path url content }',
      'lineMatches { preview lineNumber offsetAndLengths }',
    ]) {
      expect(sent.query).toContain(field);
    }
  });

  it('renders the first `count` file matches with ±context_window numbered lines, matches marked', async () => {
    reply = { status: 200, body: CANNED };
    const r = await runTool(sourcegraphTool, { query: 'WithTimeout', count: 2, context_window: 2 }, context());
    expect(r.isError).toBe(false);
    expect(r.output).toBe(
      [
        '# Sourcegraph Search Results',
        '',
        'Found 9 matches across 6 results',
        '(Result limit reached, try a more specific query)',
        '',
        '(Showing the first 2 of 5 results)',
        '',
        '## Result 1: github.com/acme/widgets/src/spin.go',
        '',
        `URL: ${origin}/github.com/acme/widgets/-/blob/src/spin.go`,
        '',
        '```',
        '4| ',
        '5| func Spin(ctx context.Context) error {',
        '6|> \tctx, cancel := context.WithTimeout(ctx, time.Second)',
        '7| \tdefer cancel()',
        '8| \treturn nil',
        '```',
        '',
        '## Result 2: github.com/acme/lines/thirty.txt',
        '',
        `URL: ${origin}/github.com/acme/lines/-/blob/thirty.txt`,
        '',
        '```',
        '1| line 1',
        '2| line 2',
        '3|> line 3',
        '4| line 4',
        '5|> line 5',
        '6| line 6',
        '7| line 7',
        '```',
        '',
        '```',
        '19| line 19',
        '20| line 20',
        '21|> line 21',
        '22| line 22',
        '23| line 23',
        '```',
        '',
        '',
      ].join('\n'),
    );
    expect(r.metadata).toEqual({ matchCount: 9, resultCount: 6, limitHit: true, resultsShown: 2, truncated: false });
  });

  it('shows every file match up to the default count of 10, with 10 lines of context', async () => {
    reply = { status: 200, body: CANNED };
    const r = await runTool(sourcegraphTool, { query: 'x' }, context());
    expect(r.output).not.toContain('(Showing the first');
    expect(r.output.match(/^## Result \d+: /gm)).toEqual([
      '## Result 1: ',
      '## Result 2: ',
      '## Result 3: ',
      '## Result 4: ',
      '## Result 5: ',
    ]);
    // the windows of the matches at 0-based lines 2, 4 and 20 overlap: one block of lines 1–30
    expect(r.output).toContain('```\n1| line 1\n2| line 2\n3|> line 3\n');
    expect(r.output).toContain('20| line 20\n21|> line 21\n22| line 22\n');
    expect(r.output).toContain('30| line 30\n```');
    expect(r.output.split('## Result 2')[1].split('## Result 3')[0].match(/```/g)).toHaveLength(2);
    expect(r.output).toContain(
      '## Result 4: github.com/acme/d/d.go\n\nURL: ' +
        `${origin}/github.com/acme/d/-/blob/d.go\n\n\`\`\`\n1| d1\n2|> d2\n\`\`\``,
    );
  });

  it('caps count at 20 rather than refusing it', async () => {
    const many = Array.from({ length: 25 }, (_, i) => fileMatch(`github.com/r/${i}`, 'f.go', 'x', [0]));
    reply = {
      status: 200,
      body: { data: { search: { results: { matchCount: 25, resultCount: 25, limitHit: false, results: many } } } },
    };
    const r = await runTool(sourcegraphTool, { query: 'x', count: 50 }, context());
    expect(r.isError).toBe(false);
    expect(r.output).toContain('(Showing the first 20 of 25 results)');
    expect(r.output).toContain('## Result 20: github.com/r/19/f.go');
    expect(r.output).not.toContain('## Result 21');
  });

  it('shows the preview alone when the file content is missing', async () => {
    const bare = {
      __typename: 'FileMatch',
      repository: { name: 'github.com/a/b' },
      file: { path: 'x.go', url: '' },
      lineMatches: [{ preview: 'func X() {}', lineNumber: 12, offsetAndLengths: [] }],
    };
    reply = {
      status: 200,
      body: { data: { search: { results: { matchCount: 1, resultCount: 1, limitHit: false, results: [bare] } } } },
    };
    const r = await runTool(sourcegraphTool, { query: 'func X' }, context());
    expect(r.output).toBe(
      '# Sourcegraph Search Results\n\nFound 1 matches across 1 results\n\n## Result 1: github.com/a/b/x.go\n\n```\n13|> func X() {}\n```\n\n',
    );
  });

  it('says so when nothing matched', async () => {
    reply = {
      status: 200,
      body: { data: { search: { results: { matchCount: 0, resultCount: 0, limitHit: false, results: [] } } } },
    };
    const r = await runTool(sourcegraphTool, { query: 'nothing-matches-this' }, context());
    expect(r).toMatchObject({
      isError: false,
      output:
        '# Sourcegraph Search Results\n\nFound 0 matches across 0 results\n\nNo results found. Try a different query.\n',
    });
  });

  it('stops adding results at the output limit and says which were left out', async () => {
    const longFile = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(3, '0')} ${'x'.repeat(90)}`).join(
      '\n',
    );
    const many = Array.from({ length: 20 }, (_, i) => fileMatch(`github.com/big/${i}`, 'big.txt', longFile, [100]));
    reply = {
      status: 200,
      body: { data: { search: { results: { matchCount: 20, resultCount: 20, limitHit: false, results: many } } } },
    };
    const r = await runTool(sourcegraphTool, { query: 'x', count: 20, context_window: 30 }, context());
    expect(r.output.length).toBeLessThanOrEqual(SOURCEGRAPH_MAX_OUTPUT_CHARS + 200);
    expect(r.output).toMatch(
      /\(Output limit reached: results (\d+)–20 are not shown\. Lower count or context_window, or narrow the query\.\)\n$/,
    );
    expect(r.metadata?.truncated).toBe(true);
  });

  it('cuts very long lines (minified code) at 500 characters', async () => {
    reply = {
      status: 200,
      body: {
        data: {
          search: {
            results: {
              matchCount: 1,
              resultCount: 1,
              limitHit: false,
              results: [fileMatch('github.com/m/m', 'm.js', 'y'.repeat(5000), [0])],
            },
          },
        },
      },
    };
    const r = await runTool(sourcegraphTool, { query: 'y' }, context());
    expect(r.output).toContain(`\`\`\`\n1|> ${'y'.repeat(500)}...\n\`\`\``);
  });

  it('returns GraphQL errors as an error result listing each message', async () => {
    reply = {
      status: 200,
      body: { errors: [{ message: 'invalid query: unclosed paren' }, { message: 'rate limit exceeded' }], data: null },
    };
    const r = await runTool(sourcegraphTool, { query: '(oops' }, context());
    expect(r).toMatchObject({
      isError: true,
      output: '## Sourcegraph API Error\n\n- invalid query: unclosed paren\n- rate limit exceeded\n',
    });
  });

  it('reports an HTTP error status with the start of the response', async () => {
    reply = { status: 503, body: { error: 'maintenance' } };
    const r = await runTool(sourcegraphTool, { query: 'x' }, context());
    expect(r).toMatchObject({
      isError: true,
      output: 'Sourcegraph request failed with status code: 503 Service Unavailable, response: {"error":"maintenance"}',
    });
  });

  it('adds /.api/graphql to an instance URL given without a path', async () => {
    reply = { status: 200, body: CANNED };
    await runTool(sourcegraphTool, { query: 'x' }, context(`${origin}/`));
    expect(received.map((r) => r.url)).toEqual(['/.api/graphql']);
  });

  it('refuses an endpoint that is not an http(s) URL', async () => {
    const r = await runTool(sourcegraphTool, { query: 'x' }, context('ftp://sourcegraph.example.com'));
    expect(r).toMatchObject({
      isError: true,
      output: 'The sourcegraph.url setting must be an http or https URL: "ftp://sourcegraph.example.com"',
    });
  });
});

describe('sourcegraph offline', () => {
  it('fails at once with a clear error when nothing listens at the endpoint', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const start = Date.now();
    const r = await runTool(sourcegraphTool, { query: 'x' }, context(`http://127.0.0.1:${port}/.api/graphql`));
    expect(r).toMatchObject({
      isError: true,
      output: `Connection refused by 127.0.0.1:${port} (ECONNREFUSED): nothing is accepting connections there.`,
    });
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('fails fast when the endpoint host does not resolve', async () => {
    const start = Date.now();
    const r = await runTool(
      sourcegraphTool,
      { query: 'x', timeout: 10 },
      context('https://sourcegraph.opencode-test.invalid/.api/graphql'),
    );
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(/^DNS lookup failed: .*"sourcegraph\.opencode-test\.invalid"/);
    expect(Date.now() - start).toBeLessThan(5000);
  });

  it('times out after the given timeout when the endpoint never answers', async () => {
    reply = 'hang';
    const start = Date.now();
    const r = await runTool(sourcegraphTool, { query: 'x', timeout: 1 }, context());
    expect(r).toMatchObject({ isError: true, output: `Sourcegraph search timed out after 1 second (${endpoint}).` });
    expect(Date.now() - start).toBeLessThan(3000);
  });

  it('stops at once when the call is canceled', async () => {
    reply = 'hang';
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const start = Date.now();
    const r = await runTool(sourcegraphTool, { query: 'x' }, context(endpoint, abort.signal));
    expect(r).toEqual({ output: 'Tool execution canceled by user', isError: true });
    expect(Date.now() - start).toBeLessThan(1500);
  });
});
