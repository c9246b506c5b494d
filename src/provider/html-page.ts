/**
 * An HTML page where an API's answer was expected (a proxy's or a captive portal's error page, a
 * wrong base URL) named in one line instead of printed whole.
 */

/**
 * `text` with an HTML page in it replaced by `an HTML page titled "502 Bad Gateway" (18311
 * characters), not the API's answer: check the base URL and any proxy`; the text before the page is
 * kept. Text without a page comes back as it is.
 */
export function describeHtmlPage(text: string): string {
  const html = /<!doctype html|<html[\s>]/i.exec(text);
  if (!html) return text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  const before = text.slice(0, html.index).replace(/\s+/g, ' ').trim();
  const size = text.length - html.index;
  return `${before ? `${before} ` : ''}an HTML page${title ? ` titled "${title}"` : ''} (${size} characters), not the API's answer: check the base URL and any proxy`;
}
