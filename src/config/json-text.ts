/**
 * Parses `.opencode.json` text as people write it: JSON with comments (`//`, `/* *\/`) and trailing
 * commas (JSONC, the form the examples in docs/ and editors' settings files use), through
 * `jsonc-parser` (the parser VS Code uses for its own settings). When the text is invalid, the first
 * problem is said with its line, column and a reason a person can act on.
 */
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';

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

type Describe = (here: string, container: '}' | ']') => string;

/**
 * How a problem reads, by jsonc-parser's error code name (`printParseErrorCode`; the codes are a
 * `const enum` in its types, which our `verbatimModuleSyntax` build cannot read). `here` describes
 * the text at the problem, e.g. `unexpected character "t"`; `container` closes the innermost array or object.
 */
const REASONS: Record<string, Describe> = {
  InvalidSymbol: (here) => `${here}, expected a value`, // {"a": tru}
  InvalidNumberFormat: () => 'invalid number', // {"a": 1e}
  PropertyNameExpected: (here) => `${here}, expected a double-quoted property name`, // {a: 1}
  ValueExpected: (here) => `${here}, expected a value`, // {"a": }
  ColonExpected: (here) => `${here}, expected ":" after the property name`, // {"a" 1}
  CommaExpected: (here, container) => `${here}, expected "," or "${container}"`, // [1 2]
  CloseBraceExpected: (here) => `${here}, expected "," or "}"`, // {"a": 1
  CloseBracketExpected: (here) => `${here}, expected "," or "]"`, // [1
  EndOfFileExpected: () => 'unexpected text after the end of the JSON value', // {} {}
  InvalidCommentToken: () => 'invalid comment',
  UnexpectedEndOfComment: () => 'unterminated /* comment', // /* …
  UnexpectedEndOfString: () => 'unterminated string', // {"a": "b
  UnexpectedEndOfNumber: () => 'incomplete number', // {"a": 1.}
  InvalidUnicode: () => 'bad \\u escape in string', // "\u12"
  InvalidEscapeCharacter: () => 'bad escape in string', // "\x"
  InvalidCharacter: () => 'control character in string (use \\n, \\t)',
};

/**
 * Parses `text` as JSONC: JSON plus comments and trailing commas (a leading UTF-8 byte-order mark is
 * ignored). Duplicate keys: the last wins, as with `JSON.parse`; a `__proto__` key is an ordinary
 * member, as with `JSON.parse` (never the object's prototype).
 * @throws {JsonSyntaxError} with the line, column and reason of the first problem.
 */
export function parseJsonText(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let problem: JsonSyntaxError | undefined;
  let root: unknown;
  // containers being filled, innermost last; `key` is the property whose value comes next
  const stack: { value: Record<string, unknown> | unknown[]; key?: string }[] = [];
  // in an object, after "{" or ",": a symbol there is a property name without its quotes
  let expectingKey = false;
  const put = (value: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) root = value;
    else if (Array.isArray(top.value)) top.value.push(value);
    else Object.defineProperty(top.value, top.key!, { value, enumerable: true, writable: true, configurable: true });
  };
  visit(
    source,
    {
      onObjectBegin: () => {
        const value = {};
        put(value);
        stack.push({ value });
        expectingKey = true;
      },
      onObjectProperty: (property) => {
        stack[stack.length - 1]!.key = property;
        expectingKey = false;
      },
      onSeparator: (character) => {
        expectingKey = character === ',' && !Array.isArray(stack[stack.length - 1]?.value);
      },
      onObjectEnd: () => void stack.pop(),
      onArrayBegin: () => {
        const value: unknown[] = [];
        put(value);
        stack.push({ value });
      },
      onArrayEnd: () => void stack.pop(),
      onLiteralValue: (value) => put(value),
      onError: (code: ParseErrorCode, offset, _length, startLine, startCharacter) => {
        if (problem) return;
        const container = Array.isArray(stack[stack.length - 1]?.value) ? ']' : '}';
        let name: string = printParseErrorCode(code);
        if (name === 'InvalidSymbol' && expectingKey) name = 'PropertyNameExpected';
        const reason = REASONS[name]?.(describe(source, offset), container) ?? 'not valid JSON';
        // jsonc-parser's lines and characters are 0-based
        problem = new JsonSyntaxError(startLine + 1, startCharacter + 1, reason);
      },
    },
    { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false },
  );
  if (problem) throw problem;
  return root;
}

/** `unexpected character "t"` or `unexpected end of input`, for the text at `offset`. */
function describe(text: string, offset: number): string {
  if (offset >= text.length) return 'unexpected end of input';
  return `unexpected character ${JSON.stringify(text[offset])}`;
}
