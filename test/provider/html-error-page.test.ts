/**
 * A proxy's HTML error page where the API's answer was expected is named in one line (title, size,
 * what to check) in the error a person reads, not printed whole or cut mid-tag.
 */
import { describe, expect, it } from 'vitest';
import { describeHtmlPage } from '../../src/provider/html-page.js';
import { classifyError } from '../../src/provider/retry.js';

const page = `<!DOCTYPE html>\n<html><head><title>400 Bad Request</title></head><body>${'<p>x</p>'.repeat(2000)}</body></html>`;

describe('an HTML error page', () => {
  it('is named by its title and size, the text before it kept', () => {
    expect(describeHtmlPage(`400 ${page}`)).toBe(
      `400 an HTML page titled "400 Bad Request" (${page.length} characters), not the API's answer: check the base URL and any proxy`,
    );
    expect(describeHtmlPage('plain message')).toBe('plain message');
  });

  it("is one line in the provider's error (-p and the TUI print it)", () => {
    const err = Object.assign(new Error(`400 ${page}`), { status: 400 });
    const { error } = classifyError(err, undefined, { providerName: 'Anthropic' } as Parameters<
      typeof classifyError
    >[2]);
    expect(error.message).toBe(
      `Anthropic API rejected the request (HTTP 400): 400 an HTML page titled "400 Bad Request" (${page.length} characters), not the API's answer: check the base URL and any proxy`,
    );
  });
});
