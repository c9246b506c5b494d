/**
 * Parses JSON text and, when it is invalid, says where and why in words a person can act on.
 *
 * `JSON.parse` on Node 20 reports some errors with a character offset, some with none, and never a line,
 * so on failure the text is re-scanned by a small strict (RFC 8259) scanner that finds the first problem.
 */

/** Thrown by {@link parseJsonText}: `line` and `column` are 1-based; `reason` is lower-case, no full stop. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`invalid JSON at line ${line} column ${column}: ${reason}`);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * Parses `text` as strict JSON (a leading UTF-8 byte-order mark is ignored).
 * @throws {JsonSyntaxError} with the line, column and reason of the first problem.
 */
export function parseJsonText(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch {
    const problem = new Scanner(source).findProblem();
    throw positioned(source, problem.offset, problem.reason);
  }
}

function positioned(text: string, offset: number, reason: string): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return new JsonSyntaxError(line, offset - lineStart + 1, reason);
}

interface Problem {
  offset: number;
  reason: string;
}

class Fail {
  constructor(readonly problem: Problem) {}
}

/** Walks the grammar just far enough to find the first offending character. */
class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  findProblem(): Problem {
    try {
      this.value();
      this.space();
      if (this.i < this.text.length) this.fail('unexpected text after the end of the JSON value');
    } catch (err) {
      if (err instanceof Fail) return err.problem;
      throw err;
    }
    // JSON.parse disagreed with the scanner: report the start rather than invent a place.
    return { offset: 0, reason: 'not valid JSON' };
  }

  private fail(reason: string, offset = this.i): never {
    throw new Fail({ offset, reason });
  }

  private describeHere(): string {
    if (this.i >= this.text.length) return 'unexpected end of input';
    return `unexpected character ${JSON.stringify(this.text[this.i])}`;
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i])) this.i++;
  }

  private value(): void {
    this.space();
    const c = this.text[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail(this.i >= this.text.length ? 'unexpected end of input, expected a value' : `${this.describeHere()}, expected a value`);
  }

  private object(): void {
    this.i++;
    this.space();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.i] !== '"') {
        this.fail(this.text[this.i] === '}' ? 'trailing comma before "}"' : `${this.describeHere()}, expected a double-quoted property name`);
      }
      this.string();
      this.space();
      if (this.text[this.i] !== ':') this.fail(`${this.describeHere()}, expected ":" after the property name`);
      this.i++;
      this.value();
      this.space();
      const c = this.text[this.i];
      this.i++;
      if (c === '}') return;
      if (c !== ',') this.fail(`${this.describe(c)}, expected "," or "}"`, this.i - 1);
    }
  }

  private array(): void {
    this.i++;
    this.space();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.i] === ']') this.fail('trailing comma before "]"');
      this.value();
      this.space();
      const c = this.text[this.i];
      this.i++;
      if (c === ']') return;
      if (c !== ',') this.fail(`${this.describe(c)}, expected "," or "]"`, this.i - 1);
    }
  }

  private describe(c: string | undefined): string {
    return c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`;
  }

  private string(): void {
    const start = this.i;
    this.i++;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const e = this.text[this.i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) this.fail('bad \\u escape in string');
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          this.i += 2;
        } else {
          this.fail(`bad escape ${JSON.stringify('\\' + (e ?? ''))} in string`);
        }
        continue;
      }
      if (c < ' ') this.fail('control character in string (use \\n, \\t)');
      this.i++;
    }
    this.fail('unterminated string', start);
  }

  private number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.i));
    if (!match) this.fail(`${this.describeHere()}, expected a value`);
    this.i += match[0].length;
  }
}
