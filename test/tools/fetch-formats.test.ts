/**
 * fetch against a loopback server: what each format gives for HTML, JSON and other text, the output
 * cap, and the refusal of binary types.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyMediaType, fetchTool, FETCH_MAX_OUTPUT_CHARS } from '../../src/tools/fetch.js';
import { prepareHtml } from '../../src/tools/html-convert.js';
import { runTool, toolContext } from '../support/tool-context.js';

const PAGE = `<!doctype html>
<html>
<head>
  <meta charset="utf-8">
  <title>Widget docs</title>
  <style>body { color: red }</style>
  <script>window.tracking = "should not appear";</script>
</head>
<body>
  <nav><a href="/"><svg><path d="M0"/></svg></a> <a href="/guide">Guide</a></nav>
  <h1>Widgets &amp; gadgets</h1>
  <p>A <strong>widget</strong> is <em>small</em>. See the <a href="api.html#make">API</a> or <a href="#top">top</a>.</p>
  <h2>Install</h2>
  <ul>
    <li>npm install widget</li>
    <li>yarn add widget</li>
  </ul>
  <pre><code class="language-js">const w = widget();
if (w) {
  w.spin();
}
</code></pre>
  <table>
    <thead><tr><th>Option</th><th>Default</th></tr></thead>
    <tbody><tr><td>speed</td><td>1</td></tr><tr><td>color | shade</td><td>red</td></tr></tbody>
  </table>
  <p>Line one<br>line two</p>
  <img src="/logo.png" alt="Logo"><img src="data:image/png;base64,iVBORw0KGgo=" alt="">
  <noscript>Please enable JavaScript</noscript>
</body>
</html>`;

const routes: Record<string, { type?: string; body: string | Buffer }> = {
  '/docs/page.html': { type: 'text/html; charset=utf-8', body: PAGE },
  '/data.json': { type: 'application/json', body: '{"name":"widget","tags":["a","b"],"size":{"w":1}}' },
  '/problem': { type: 'application/problem+json', body: '{"title":"Not allowed"}' },
  '/broken.json': { type: 'application/json', body: '{"unterminated": ' },
  '/notes.txt': { type: 'text/plain; charset=utf-8', body: 'plain notes\nsecond line\n' },
  '/README.md': { type: 'text/markdown', body: '# Readme\n\nSome *markdown*.\n' },
  '/style.css': { type: 'text/css', body: 'a { color: blue; }\n' },
  '/ticks.txt': { type: 'text/plain', body: 'before\n```\ncode\n```\nafter' },
  '/latin1.html': { type: 'text/html; charset=iso-8859-1', body: Buffer.from('<p>caf\xe9 cr\xe8me</p>', 'latin1') },
  '/meta-charset.html': {
    type: 'text/html',
    body: Buffer.from('<meta charset="windows-1252"><p>na\xefve</p>', 'latin1'),
  },
  '/untyped': { body: '<!DOCTYPE html><html><body><h1>Untyped</h1></body></html>' },
  '/big.txt': { type: 'text/plain', body: 'abcdefghi\n'.repeat(15_000) },
  '/spa.html': {
    type: 'text/html',
    body: '<html><body><div id="root"></div><script src="/app.js"></script></body></html>',
  },
  '/empty': { type: 'text/plain', body: '' },
  '/logo.png': { type: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
  '/bin.txt': { type: 'text/plain', body: Buffer.from([0x41, 0x00, 0x42, 0x00]) },
  '/icon.svg': { type: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>' },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, route.type ? { 'Content-Type': route.type } : {});
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function fetchAs(path: string, format: 'markdown' | 'text' | 'html') {
  return runTool(fetchTool, { url: `${base}${path}`, format }, toolContext('/tmp'));
}

describe('fetch formats', () => {
  it('converts HTML to markdown: atx headings, fenced code, tables, absolute links; no script, style or head', async () => {
    const r = await fetchAs('/docs/page.html', 'markdown');
    expect(r.isError).toBe(false);
    expect(r.output).toBe(
      [
        `[Guide](${base}/guide)`,
        '',
        '# Widgets & gadgets',
        '',
        `A **widget** is _small_. See the [API](${base}/docs/api.html#make) or top.`,
        '',
        '## Install',
        '',
        '-   npm install widget',
        '-   yarn add widget',
        '',
        '```js',
        'const w = widget();',
        'if (w) {',
        '  w.spin();',
        '}',
        '```',
        '',
        '| Option | Default |',
        '| --- | --- |',
        '| speed | 1 |',
        '| color \\| shade | red |',
        '',
        'Line one  ',
        'line two',
        '',
        `![Logo](${base}/logo.png)`,
      ].join('\n'),
    );
    expect(r.metadata).toMatchObject({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      format: 'markdown',
      redirects: 0,
      truncated: false,
    });
  });

  it('gives the text of HTML without script, style or noscript, keeping paragraph and line breaks', async () => {
    const r = await fetchAs('/docs/page.html', 'text');
    expect(r.output).toBe(
      [
        'Guide',
        '',
        'Widgets & gadgets',
        '',
        'A widget is small. See the API or top.',
        '',
        'Install',
        '',
        'npm install widget',
        'yarn add widget',
        '',
        'const w = widget();',
        'if (w) {',
        '  w.spin();',
        '}',
        '',
        'Option\tDefault',
        'speed\t1',
        'color | shade\tred',
        '',
        'Line one',
        'line two',
      ].join('\n'),
    );
    expect(r.output).not.toMatch(/tracking|color: red|enable JavaScript/);
  });

  it('converts several pages at once', async () => {
    const [markdown, text, again] = await Promise.all([
      fetchAs('/docs/page.html', 'markdown'),
      fetchAs('/docs/page.html', 'text'),
      fetchAs('/untyped', 'markdown'),
    ]);
    expect(markdown.output).toContain('# Widgets & gadgets');
    expect(text.output).toContain('\nWidgets & gadgets\n');
    expect(again.output).toBe('# Untyped');
  });

  it('returns the raw HTML for format html', async () => {
    const r = await fetchAs('/docs/page.html', 'html');
    expect(r.output).toBe(PAGE);
  });

  it('pretty-prints JSON: fenced as json in markdown, bare in text, raw in html', async () => {
    const pretty = '{\n  "name": "widget",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "size": {\n    "w": 1\n  }\n}';
    expect((await fetchAs('/data.json', 'markdown')).output).toBe(`\`\`\`json\n${pretty}\n\`\`\``);
    expect((await fetchAs('/data.json', 'text')).output).toBe(pretty);
    expect((await fetchAs('/data.json', 'html')).output).toBe('{"name":"widget","tags":["a","b"],"size":{"w":1}}');
    expect((await fetchAs('/problem', 'text')).output).toBe('{\n  "title": "Not allowed"\n}');
    expect((await fetchAs('/broken.json', 'text')).output).toBe('{"unterminated": ');
  });

  it('returns other text as it is, fenced in markdown (markdown itself unfenced)', async () => {
    expect((await fetchAs('/notes.txt', 'text')).output).toBe('plain notes\nsecond line\n');
    expect((await fetchAs('/notes.txt', 'markdown')).output).toBe('```\nplain notes\nsecond line\n```');
    expect((await fetchAs('/style.css', 'markdown')).output).toBe('```css\na { color: blue; }\n```');
    expect((await fetchAs('/README.md', 'markdown')).output).toBe('# Readme\n\nSome *markdown*.\n');
    expect((await fetchAs('/ticks.txt', 'markdown')).output).toBe('````\nbefore\n```\ncode\n```\nafter\n````');
    expect((await fetchAs('/icon.svg', 'text')).output).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>',
    );
  });

  it('decodes the charset of the Content-Type, or of a <meta charset>', async () => {
    expect((await fetchAs('/latin1.html', 'text')).output).toBe('café crème');
    expect((await fetchAs('/meta-charset.html', 'text')).output).toBe('naïve');
  });

  it('treats an untyped body that starts like HTML as HTML', async () => {
    expect((await fetchAs('/untyped', 'markdown')).output).toBe('# Untyped');
  });

  it('says why there is no content instead of returning nothing', async () => {
    expect((await fetchAs('/spa.html', 'markdown')).output).toBe(
      '(The page has no text without running its JavaScript: it is probably rendered by scripts. Format "html" shows its markup.)',
    );
    expect((await fetchAs('/empty', 'text')).output).toBe('(The response, status 200, has an empty body.)');
  });

  it(`caps the output at ${FETCH_MAX_OUTPUT_CHARS} characters and says how much was cut`, async () => {
    const r = await fetchAs('/big.txt', 'text');
    expect(r.isError).toBe(false);
    expect(r.output).toBe(
      `${'abcdefghi\n'.repeat(10_000)}\n\n[Output truncated: showing the first 100,000 of 150,000 characters; 50,000 characters were cut.]`,
    );
    expect(r.metadata?.truncated).toBe(true);
  });

  it('refuses binary content types, naming the type', async () => {
    const r = await fetchAs('/logo.png', 'markdown');
    expect(r).toMatchObject({
      isError: true,
      output:
        'Refused to fetch image/png content: binary content cannot be shown as text. fetch returns web pages, JSON and other text.',
    });
  });

  it('refuses a body labelled as text that holds NUL bytes', async () => {
    const r = await fetchAs('/bin.txt', 'text');
    expect(r.isError).toBe(true);
    expect(r.output).toBe(
      'Refused to fetch the content: the body holds NUL bytes, so it is binary even though it is labelled text/plain. fetch returns web pages, JSON and other text.',
    );
  });
});

describe('classifyMediaType', () => {
  it('sorts media types into html, json, markdown, text and binary', () => {
    expect(classifyMediaType('text/html')).toBe('html');
    expect(classifyMediaType('application/xhtml+xml')).toBe('html');
    expect(classifyMediaType('application/vnd.api+json')).toBe('json');
    expect(classifyMediaType('text/markdown')).toBe('markdown');
    expect(classifyMediaType('application/rss+xml')).toBe('text');
    expect(classifyMediaType('application/javascript')).toBe('text');
    expect(classifyMediaType('image/svg+xml')).toBe('text');
    for (const type of [
      'image/png',
      'audio/mpeg',
      'video/mp4',
      'application/octet-stream',
      'application/pdf',
      'application/zip',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]) {
      expect(classifyMediaType(type), type).toBe('binary');
    }
    expect(classifyMediaType('application/x-unknown-thing')).toBeUndefined();
  });
});

describe('prepareHtml', () => {
  it('drops comments and script, style, noscript, template and svg elements in one pass', () => {
    const html =
      '<p>a</p><!-- <script>x</script> --><SCRIPT type="x">if (a < b) {}</SCRIPT ><style>p{}</style><p>b</p><svg><svg></svg><p>c</p><noscript>n</noscript><template><p>t</p></template>';
    expect(prepareHtml(html).html).toBe('<p>a</p><p>b</p><p>c</p>');
  });

  it('keeps look-alike tags such as <scripted> and <styles>', () => {
    expect(prepareHtml('<scripted>a</scripted><styles>b</styles>').html).toBe(
      '<scripted>a</scripted><styles>b</styles>',
    );
  });

  it('drops an unclosed script to the end, as a browser does', () => {
    expect(prepareHtml('<p>kept</p><script>never closed <p>gone</p>').html).toBe('<p>kept</p>');
  });

  it('cuts what is left at the limit and says so', () => {
    expect(prepareHtml('<p>0123456789</p>', 8)).toEqual({ html: '<p>01234', strippedChars: 17, cut: true });
    expect(prepareHtml('<p>01</p>', 9)).toEqual({ html: '<p>01</p>', strippedChars: 9, cut: false });
  });
});
