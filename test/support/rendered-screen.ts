import xterm from '@xterm/headless';

/**
 * What a terminal `columns` wide shows after the bytes a command wrote to it: the bytes go through a headless
 * xterm (with the tty's LF → CRLF), and the screen's lines are read back, so a test asserts what an operator
 * sees (wrapped rows, cut cells), never substrings of the byte stream.
 */
export async function renderedScreen(text: string, columns: number, rows = 100): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 1000 });
  await new Promise<void>((resolve) => terminal.write(text.replaceAll('\n', '\r\n'), resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let index = 0; index < buffer.length; index++) lines.push(buffer.getLine(index)?.translateToString(true) ?? '');
  terminal.dispose();
  while (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Screen lines that continue the line above (a row too wide for the terminal wrapped). */
export async function wrappedLineCount(text: string, columns: number): Promise<number> {
  const terminal = new xterm.Terminal({ cols: columns, rows: 100, allowProposedApi: true, scrollback: 1000 });
  await new Promise<void>((resolve) => terminal.write(text.replaceAll('\n', '\r\n'), resolve));
  const buffer = terminal.buffer.active;
  let wrapped = 0;
  for (let index = 0; index < buffer.length; index++) if (buffer.getLine(index)?.isWrapped) wrapped++;
  terminal.dispose();
  return wrapped;
}

/**
 * The screen column at which `marker` (one narrow character) first shows on each line: where a cell starts as
 * the terminal draws it, a wide character taking two columns (a line without it gives -1).
 */
export async function screenColumnsOf(text: string, columns: number, marker: string): Promise<number[]> {
  const terminal = new xterm.Terminal({ cols: columns, rows: 100, allowProposedApi: true, scrollback: 1000 });
  await new Promise<void>((resolve) => terminal.write(text.replaceAll('\n', '\r\n'), resolve));
  const buffer = terminal.buffer.active;
  const found: number[] = [];
  for (let index = 0; index < buffer.length; index++) {
    const line = buffer.getLine(index);
    if (line === undefined || line.translateToString(true) === '') continue;
    let column = -1;
    for (let x = 0; x < columns && column < 0; x++) if (line.getCell(x)?.getChars() === marker) column = x;
    found.push(column);
  }
  terminal.dispose();
  return found;
}

/**
 * What a terminal shows after bytes written while its window changed width: each step's text is written once the
 * terminal is `columns` wide (the first step's width is the one it starts at; a resize rewraps the screen, as the
 * terminals in use do).
 */
export async function renderedScreenInSteps(
  steps: readonly { columns: number; text: string }[],
  rows = 30,
): Promise<string[]> {
  const terminal = new xterm.Terminal({
    cols: steps[0]?.columns ?? 80,
    rows,
    allowProposedApi: true,
    scrollback: 1000,
  });
  for (const step of steps) {
    if (terminal.cols !== step.columns) terminal.resize(step.columns, rows);
    await new Promise<void>((resolve) => terminal.write(step.text.replaceAll('\n', '\r\n'), resolve));
  }
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let index = 0; index < buffer.length; index++) lines.push(buffer.getLine(index)?.translateToString(true) ?? '');
  terminal.dispose();
  while (lines.at(-1) === '') lines.pop();
  return lines;
}
