/**
 * Prose cut into lines of at most `width` characters at spaces, so a terminal never breaks a word. Pure. `measure`
 * says how wide a text is shown when that is not its length (a table's cells, which may hold wide characters).
 */
export function wordWrap(
  text: string,
  width: number | undefined,
  measure: (text: string) => number = (each) => each.length,
): string[] {
  if (width === undefined || measure(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = word;
    else if (measure(`${line} ${word}`) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}
