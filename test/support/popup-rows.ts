/**
 * The rows of the editor's completion popup in a rendered frame (ink-testing-library's `lastFrame()`):
 * the lines between its round border (`╭` … `╰`), with the side borders and trailing spaces trimmed;
 * `[]` when no popup shows.
 */
export function popupRows(frame: string): string[] {
  const lines = frame.split('\n');
  const top = lines.findIndex((l) => l.startsWith('╭'));
  const bottom = lines.findIndex((l) => l.startsWith('╰'));
  if (top < 0) return [];
  return lines.slice(top + 1, bottom).map((l) => l.replace(/^│\s?/, '').replace(/\s*│$/, '').trimEnd());
}
