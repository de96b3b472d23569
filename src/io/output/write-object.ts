import type { OutputFormat } from '../../base/output-format.js';
import { createRecordWriter } from './record-writer.js';
import { cellText } from './csv-format.js';
import { labelledLines } from './fitted-layouts.js';
import { terminalColumns } from './table.js';

/** What printing one object needs of a command's context. */
export interface ObjectOutput {
  io: { stdout: NodeJS.WritableStream };
  outputFormat(fallback: 'json' | 'ndjson'): OutputFormat;
  globals: { excel?: boolean };
}

/** Prints one object a command got back: `field: value` lines on a terminal, else as JSON (or -o ndjson/csv, --excel). */
export async function writeObject(context: ObjectOutput, object: Record<string, unknown>): Promise<void> {
  const format = context.outputFormat('json');
  if (format === 'json') {
    context.io.stdout.write(`${JSON.stringify(object, null, 2)}\n`);
    return;
  }
  if (format === 'table') {
    const labelWidth = Math.max(...Object.keys(object).map((key) => key.length)) + 2;
    const pairs = Object.keys(object).map((key) => [`${key}:`, cellText(object[key])] as const);
    const width = terminalColumns(context.io.stdout);
    // On a terminal, a long value wraps under its own column, never back at the left edge (docs/output.md); piped,
    // each stays on its line, whole, for a script's grep.
    const lines =
      width === undefined
        ? pairs.map(([label, value]) => `${label.padEnd(labelWidth)}${value}`)
        : labelledLines(pairs, width, labelWidth);
    context.io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return;
  }
  const writer = createRecordWriter(
    format,
    context.io.stdout,
    { table: [], csv: Object.keys(object) },
    { color: false, excel: context.globals.excel === true },
  );
  await writer.write(object);
  await writer.end();
}
