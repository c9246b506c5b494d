import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { displayWidth, fitLine, normalizeText, wrapText } from '../../src/tui/render/text-width.js';
import { renderMarkdown } from '../../src/tui/render/markdown.js';
import { renderChatItem } from '../../src/tui/render/message-lines.js';
import type { ChatItem } from '../../src/tui/state/chat-item.js';
import { THEMES } from '../../src/tui/themes.js';

const theme = THEMES.opencode;

/** Every line fits and none holds a newline. */
function expectFits(lines: string[], width: number): void {
  for (const line of lines) {
    expect(line.includes('\n'), JSON.stringify(line)).toBe(false);
    expect(stringWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
  }
}

describe('text width', () => {
  it('counts CJK and emoji as two columns', () => {
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('😀a')).toBe(3);
    expect(displayWidth('\u001b[31mred\u001b[39m')).toBe(3);
  });

  it('wraps CJK text at two columns a character', () => {
    expect(wrapText('中文字符测试', 5)).toEqual(['中文', '字符', '测试']);
  });

  it('expands tabs to four spaces and keeps the indentation on wrapped rows', () => {
    expect(wrapText('\tab cd ef gh ij', 12)).toEqual(['    ab cd ef', '    gh ij']);
  });

  it('cuts a line without letting a wide character straddle the edge', () => {
    expect(fitLine('中文字符', 3)).toBe('中');
    expect(fitLine('abcdef', 4)).toBe('abcd');
    expect(fitLine('abc', 0)).toBe('');
  });

  it('drops carriage returns and splits at newlines', () => {
    expect(wrapText('a\r\nb\rc', 10)).toEqual(['a', 'bc']);
  });

  it('removes cursor moves, screen clears, titles and stray controls but keeps colours', () => {
    const raw = '\u001b[2J\u001b[1Gdone\u001b[0K \u001b[32mok\u001b[39m\u001b]0;title\u0007\u0007\u0008!\u001b';
    expect(normalizeText(raw)).toBe('done \u001b[32mok\u001b[39m!');
  });

  it('never returns a line wider than the width for CJK and emoji text, at any width', () => {
    const text = '中文字符测试 😀😀😀 👨‍👩‍👧 mixed ascii and 한국어 text ｆｕｌｌｗｉｄｔｈ';
    for (let width = 2; width <= 30; width++) expectFits(wrapText(text, width), width);
  });

  it('renders CJK and emoji markdown and messages within the width', () => {
    const md =
      '# 标题 😀\n\n- 列表项目很长很长很长很长很长 😀😀😀😀\n\n> 引用文字引用文字引用文字\n\n```\n代码代码代码代码代码代码代码\n```\n\n| 名字 | 值 |\n|---|---|\n| 中文中文中文中文 | 😀😀😀😀😀😀 |';
    for (const width of [3, 7, 12, 20]) expectFits(renderMarkdown(md, width, theme), width);
    const item: ChatItem = {
      id: 'u1',
      version: '1',
      role: 'user',
      streaming: false,
      tools: [],
      message: {
        id: 'u1',
        sessionId: 's',
        role: 'user',
        seq: 1,
        createdAt: 0,
        updatedAt: 0,
        parts: [
          { type: 'text', text: '请帮我看看这个文件 😀😀😀 中文中文中文' },
          { type: 'image', mimeType: 'image/png', data: '', name: '截图.png' },
        ],
      },
    };
    for (const width of [4, 9, 16]) expectFits(renderChatItem(item, { width, showThinking: false }, theme), width);
  });
});

describe('displayWidth fast path', () => {
  it('agrees with string-width on narrow symbols, wide characters and colour codes', async () => {
    const { default: stringWidth } = await import('string-width');
    const { displayWidth } = await import('../../src/tui/render/text-width.js');
    const samples = [
      'plain ascii',
      '\u001b[31mred\u001b[39m',
      '● Bash  ls',
      '│ quote ─── ‹›',
      'café “quoted” — dash…',
      '中文字符',
      '👍🏽 ok',
      '↑ more ↓',
      '✔ ✖ ✓',
      '▸ item',
      'tab\there',
    ];
    for (const s of samples) expect([s, displayWidth(s)]).toEqual([s, stringWidth(s)]);
  });
});
