/**
 * Markdown for the terminal: the assistant's text parsed with marked's lexer and drawn by our own
 * token walker into lines of at most `width` columns, in the theme's markdown colours.
 *
 * Choices: a single newline inside a paragraph stays a line break (models write line-oriented text,
 * and streamed rows then stay put as the paragraph grows); blocks are separated by one blank line;
 * code blocks are indented by 2 and long code lines wrap (keeping their indentation) rather than
 * being cut, since there is no horizontal scrolling and a cut would hide code for good.
 */
import chalk from 'chalk';
import { Lexer, type Token, type Tokens } from 'marked';
import type { Theme } from '../theme.js';
import { highlightCode } from './highlight.js';
import { displayWidth, fitLine, padLine, wrapText } from './text-width.js';

/** Columns code blocks are indented by. */
const CODE_INDENT = '  ';

/** The HTML entities models write in prose; marked's lexer leaves them as typed. */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e] ?? e);
}

/** Inline tokens → one styled string (it may contain `\n` for line breaks). */
function renderInline(tokens: Token[] | undefined, theme: Theme): string {
  if (!tokens) return '';
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text': {
        const t = token as Tokens.Text;
        out += t.tokens ? renderInline(t.tokens, theme) : decodeEntities(t.text);
        break;
      }
      case 'strong':
        out += chalk.bold(renderInline((token as Tokens.Strong).tokens, theme));
        break;
      case 'em':
        out += chalk.italic(renderInline((token as Tokens.Em).tokens, theme));
        break;
      case 'del':
        out += chalk.strikethrough(renderInline((token as Tokens.Del).tokens, theme));
        break;
      case 'codespan':
        out += chalk.hex(theme.markdownCode)((token as Tokens.Codespan).text);
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const text = renderInline(link.tokens, theme);
        out += chalk.underline.hex(theme.markdownLink)(text);
        // an autolink's text is its url: don't say it twice
        if (link.href && link.href !== link.text && `mailto:${link.text}` !== link.href)
          out += chalk.dim(` (${link.href})`);
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        out += chalk.hex(theme.markdownLink)(`[image: ${image.text || image.href}]`) + chalk.dim(` (${image.href})`);
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'escape':
      case 'html':
        out += (token as Tokens.Escape | Tokens.HTML).text;
        break;
      default:
        if ('tokens' in token && Array.isArray(token.tokens)) out += renderInline(token.tokens, theme);
        else if ('text' in token && typeof token.text === 'string') out += token.text;
    }
  }
  return out;
}

/** Block tokens → lines, blocks separated by a blank line (`tight`: no blank lines, a tight list item). */
function renderBlocks(tokens: Token[], width: number, theme: Theme, tight = false): string[] {
  const lines: string[] = [];
  for (const token of tokens) {
    const block = renderBlock(token, width, theme);
    if (block.length === 0) continue;
    if (lines.length > 0 && !tight) lines.push('');
    lines.push(...block);
  }
  return lines;
}

function renderBlock(token: Token, width: number, theme: Theme): string[] {
  switch (token.type) {
    case 'space':
    case 'def':
      return [];
    case 'heading': {
      const heading = token as Tokens.Heading;
      const style = chalk.bold.hex(theme.markdownHeading);
      return wrapText(renderInline(heading.tokens, theme), width).map((line) => style(line));
    }
    case 'paragraph':
      return wrapText(renderInline((token as Tokens.Paragraph).tokens, theme), width);
    case 'text': {
      const text = token as Tokens.Text;
      return wrapText(text.tokens ? renderInline(text.tokens, theme) : decodeEntities(text.text), width);
    }
    case 'code': {
      const code = token as Tokens.Code;
      const language = code.lang?.split(/\s+/)[0];
      return renderCodeBlock(code.text, language, width, theme);
    }
    case 'list':
      return renderList(token as Tokens.List, width, theme);
    case 'blockquote': {
      const quote = token as Tokens.Blockquote;
      const style = chalk.hex(theme.markdownBlockQuote);
      return renderBlocks(quote.tokens, Math.max(1, width - 2), theme).map((line) =>
        fitLine(style('│ ' + line), width),
      );
    }
    case 'hr':
      return [chalk.hex(theme.textMuted)('─'.repeat(Math.max(1, width)))];
    case 'table':
      return renderTable(token as Tokens.Table, width, theme);
    case 'html':
      return wrapText((token as Tokens.HTML).text.replace(/\n+$/, ''), width);
    default:
      if ('text' in token && typeof token.text === 'string') return wrapText(token.text, width);
      return [];
  }
}

/**
 * A fenced code block: highlighted, indented by 2, long lines wrapped (see the module comment).
 * Exported for the tool views (bash output, viewed files), which draw code the same way.
 */
export function renderCodeBlock(code: string, language: string | undefined, width: number, theme: Theme): string[] {
  const room = Math.max(1, width - CODE_INDENT.length);
  const highlighted = highlightCode(code, language, theme);
  const lines: string[] = [];
  for (const line of highlighted.split('\n')) {
    for (const row of wrapText(line, room)) lines.push(row === '' ? '' : fitLine(CODE_INDENT + row, width));
  }
  return lines;
}

/** Columns a nested list item must keep for its text before nesting stops indenting. */
const MIN_LIST_ROOM = 10;

function renderList(list: Tokens.List, width: number, theme: Theme): string[] {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((_, i) => (list.ordered ? `${start + i}.` : '•'));
  const markerWidth = Math.max(...markers.map((m) => displayWidth(m))) + 1;
  // deep nesting on a narrow screen: stop indenting once too little room is left (a 30-level list at
  // 40 columns otherwise wraps a letter a row and then hundreds of blank rows)
  const indent = width - markerWidth >= MIN_LIST_ROOM ? markerWidth : 0;
  const room = Math.max(1, width - indent);
  const lines: string[] = [];
  list.items.forEach((item, i) => {
    if (i > 0 && list.loose) lines.push('');
    const body = renderBlocks(
      item.tokens.filter((t) => t.type !== 'checkbox'),
      room,
      theme,
      !item.loose,
    );
    if (body.length === 0) body.push('');
    if (item.task) body[0] = (item.checked ? '[x] ' : '[ ] ') + body[0];
    const marker = chalk.hex(theme.markdownListItem)(padLine(markers[i]!, markerWidth));
    if (indent === 0) {
      body.forEach((line, j) => lines.push(j === 0 ? fitLine(marker + line, width) : line));
      return;
    }
    const hanging = ' '.repeat(markerWidth);
    body.forEach((line, j) => lines.push(fitLine((j === 0 ? marker : line === '' ? '' : hanging) + line, width)));
  });
  return lines;
}

/** Columns laid out at their widest cell, ` │ ` between them; rows cut to `width`. */
function renderTable(table: Tokens.Table, width: number, theme: Theme): string[] {
  const cell = (c: Tokens.TableCell) => renderInline(c.tokens, theme).replace(/\n/g, ' ');
  const header = table.header.map(cell);
  const rows = table.rows.map((row) => row.map(cell));
  const widths = header.map((h, col) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[col] ?? ''))));
  const layout = (cells: string[]) =>
    cells
      .map((c, col) => {
        const gap = widths[col]! - displayWidth(c);
        const align = table.align[col];
        if (align === 'right') return ' '.repeat(gap) + c;
        if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + c + ' '.repeat(gap - Math.floor(gap / 2));
        return col === cells.length - 1 ? c : c + ' '.repeat(gap);
      })
      .join(' │ ');
  const rule = chalk.hex(theme.textMuted)(widths.map((w) => '─'.repeat(w)).join('─┼─'));
  const lines = [chalk.bold(layout(header)), rule, ...rows.map(layout)];
  return lines.map((line) => fitLine(line.trimEnd(), width));
}

/**
 * Draws markdown `text` as terminal lines of at most `width` columns (never containing `\n`):
 * headings bold in `markdownHeading` without their `#` marks, paragraphs wrapped, **bold**,
 * *italic*, `code` in `markdownCode`, links as text plus the dim url, lists with `•` or `N.` and a
 * hanging indent (nested lists indent further), block quotes behind `│ `, fenced code highlighted
 * and indented by 2, rules as `─`, tables as aligned columns. HTML is shown as typed.
 * Empty text gives `[]`.
 */
export function renderMarkdown(text: string, width: number, theme: Theme): string[] {
  const w = Math.max(1, width);
  if (text.trim() === '') return [];
  return renderBlocks(new Lexer().lex(text), w, theme);
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** A code fence still open: its indentation and marker (```` ``` ````, `~~~~`). */
export interface OpenFence {
  indent: string;
  fence: string;
}

/**
 * The fence open after `line`, given the one open before it. A fence opens on three or more
 * backticks or tildes (a backtick fence's info string may not contain a backtick, CommonMark 4.5)
 * and closes on a line of the same character, at least as long, with nothing after it.
 */
export function nextFenceState(open: OpenFence | undefined, line: string): OpenFence | undefined {
  const match = FENCE.exec(line);
  if (!match) return open;
  const [, indent, fence, rest] = match as unknown as [string, string, string, string];
  if (!open) return fence[0] === '`' && rest.includes('`') ? undefined : { indent, fence };
  return fence[0] === open.fence[0] && fence.length >= open.fence.length && rest.trim() === '' ? undefined : open;
}

/**
 * The part of a streaming markdown text that is safe to render now. The rule:
 * 1. The unfinished last line is shown as it is (a paragraph appears while it streams), unless it
 *    could still become a code fence (it starts with backticks or tildes): then it waits for its `\n`.
 * 2. If a code fence (```` ``` ```` or `~~~`, any indentation) is open at the end, a closing fence
 *    of the same characters and indentation is appended, so the open block renders as a code block
 *    now and its lines stay where they are when the real closing fence arrives.
 * A fence closes on a line of the same character, at least as long, with nothing after it.
 */
export function safeStreamingPrefix(text: string): string {
  const end = text.lastIndexOf('\n');
  const partial = text.slice(end + 1);
  const complete = /^\s*(`|~)/.test(partial) || partial === '' ? (end < 0 ? '' : text.slice(0, end)) : text;
  let open: OpenFence | undefined;
  for (const line of complete.split('\n')) open = nextFenceState(open, line);
  return open ? `${complete}\n${open.indent}${open.fence}` : complete;
}
