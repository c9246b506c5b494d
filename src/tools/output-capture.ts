/** A command's output collected with bounded memory, cut as the tool kernel cuts a result. */

/**
 * Collects a stream's text keeping memory bounded: the whole text while it fits in `maxChars`, else
 * the first and last `maxChars / 2` characters and a count of the lines in between. {@link text} equals
 * the kernel's cut of the whole text (`truncateOutput(wholeText, 'marker', { maxOutputChars: maxChars })`
 * in tools/truncate.ts) without holding it.
 */
export class OutputCapture {
  private whole = '';
  private head = '';
  private tail = '';
  private overflowed = false;
  private droppedNewlines = 0;
  private readonly half: number;

  constructor(private readonly maxChars: number) {
    this.half = Math.floor(maxChars / 2);
  }

  append(chunk: string): void {
    if (!this.overflowed) {
      this.whole += chunk;
      if (this.whole.length <= this.maxChars) return;
      this.overflowed = true;
      this.head = this.whole.slice(0, this.half);
      this.tail = this.whole.slice(this.half);
      this.whole = '';
    } else {
      this.tail += chunk;
    }
    // trim only now and then: slicing on every small chunk would be quadratic
    if (this.tail.length > this.maxChars * 2) this.trimTail();
  }

  text(): string {
    if (!this.overflowed) return this.whole;
    this.trimTail();
    return `${this.head}\n\n... [${this.droppedNewlines + 1} lines truncated] ...\n\n${this.tail}`;
  }

  private trimTail(): void {
    const excess = this.tail.length - this.half;
    if (excess <= 0) return;
    this.droppedNewlines += countNewlines(this.tail, excess);
    this.tail = this.tail.slice(excess);
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
