/** Prose cut into lines of at most `width` characters at spaces, so a terminal never breaks a word. Pure. */
export function wordWrap(text: string, width: number | undefined): string[] {
  if (width === undefined || text.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}
