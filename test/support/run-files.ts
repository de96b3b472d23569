/**
 * What a bulk run leaves for a person to read, read back by tests: its report and errors files beside the
 * input, and its stderr with what the clock decides masked or left open.
 */
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';

/**
 * A line pattern: the text matched literally except for `{s}` (seconds with one decimal, `0.3`),
 * `{n}` (a whole number) and `{stamp}` (a report's timestamp, `20261122-021500`, maybe `-2`).
 * Only what the clock decides is left open; everything else is exact.
 */
export function timed(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped.replaceAll('{s}', '\\d+\\.\\d').replaceAll('{n}', '\\d+').replaceAll('{stamp}', '\\d{8}-\\d{6}(?:-\\d+)?')}$`,
  );
}

/** Asserts every line of `text` in order: a string must be equal, a RegExp must match the whole line. */
export function expectLines(text: string, expected: readonly (string | RegExp)[]): void {
  const lines = text.split('\n');
  // The output ends with a newline.
  expect(lines.pop()).toBe('');
  const shown = lines.map((line, index) => {
    const pattern = expected[index];
    return pattern instanceof RegExp && pattern.test(line) ? pattern : line;
  });
  expect(shown).toEqual(expected);
}

/** Asserts that some line of `text` matches the whole of `pattern`. */
export function expectSomeLine(text: string, pattern: RegExp): void {
  expect({ text, matching: text.split('\n').filter((line) => pattern.test(line)).length }).toEqual({
    text,
    matching: 1,
  });
}

/** The files a bulk run wrote beside `base` (`customers` for customers.csv) in a folder, by kind. */
export function runFiles(folder: string, base: string): { reports: string[]; errors: string[] } {
  const names = readdirSync(folder).toSorted();
  const escaped = base.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const of = (kind: string) =>
    names.filter((name) => new RegExp(`^${escaped}\\.${kind}-\\d{8}-\\d{6}(?:-\\d+)?\\.(csv|ndjson)$`).test(name));
  return { reports: of('report'), errors: of('errors') };
}

/** The one report a run wrote beside `base`; fails when there is none or more than one. */
export function onlyReport(folder: string, base: string): string {
  const { reports } = runFiles(folder, base);
  expect(reports).toHaveLength(1);
  return reports[0] as string;
}

/** The one errors file a run wrote beside `base`. */
export function onlyErrorsFile(folder: string, base: string): string {
  const { errors } = runFiles(folder, base);
  expect(errors).toHaveLength(1);
  return errors[0] as string;
}
/** The one file of a folder whose name starts with `prefix` (`stock.report-`); fails on none or several. */
export function onlyFile(folder: string, prefix: string): string {
  // The run record (`.meta.json`) beside a report is not one of the files asked for.
  const names = readdirSync(folder).filter((name) => name.startsWith(prefix) && !name.endsWith('.meta.json'));
  if (names.length !== 1) throw new Error(`expected one ${prefix}* in ${folder}, found ${JSON.stringify(names)}`);
  return join(folder, names[0] as string);
}

export function filesStartingWith(folder: string, prefix: string): string[] {
  return readdirSync(folder).filter((name) => name.startsWith(prefix));
}
export interface ReportRow {
  line: string;
  key: string;
  outcome: string;
  status: string;
  id: string;
  message: string;
  /** Reports of CSV input: the record's spreadsheet row. */
  row?: string;
}

/** A run's report as rows of text, with its header checked. */
export function readReport(path: string): ReportRow[] {
  const text = readFileSync(path, 'utf8');
  // RFC 4180 line ends, as Excel writes them; a report of CSV input ends with the row column.
  expect(text.split('\n')[0]).toMatch(/^line,key,outcome,status,id,message(,row)?\r$/);
  return parse(text, { columns: true }) as ReportRow[];
}

/** An errors CSV: its BOM, header cells and rows of cells, read with the input's delimiter. */
export function readErrorsCsv(path: string, delimiter = ','): { bom: boolean; header: string[]; rows: string[][] } {
  const text = readFileSync(path, 'utf8');
  const bom = text.startsWith('\uFEFF');
  const [header, ...rows] = parse(bom ? text.slice(1) : text, { delimiter }) as string[][];
  return { bom, header: header ?? [], rows };
}
/** Rows of a report written so far (its header not counted), or 0 before it exists. */
export function reportRowCount(path: string | undefined): number {
  if (!path || !existsSync(path)) return 0;
  const text = readFileSync(path, 'utf8');
  let newlines = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) newlines++;
  return Math.max(0, newlines - 1);
}

/**
 * stderr with the readings of the clock masked, so that every other character can be asserted:
 * `(0.0 s)` → `(T s)`, `; 0.3 s, 2261 items/s` → `; T s, R items/s`, and report stamps
 * `20261122-034114` → `STAMP`. The temporary folder, when given, becomes `DIR`.
 */
export function maskClock(stderr: string, folder?: string): string {
  let text = stderr
    .replace(/\(\d+\.\d s\)/g, '(T s)')
    .replace(/ in \d+\.\d s\./g, ' in T s.')
    .replace(/; \d+\.\d s, \d+ (\w+)\/s$/gm, '; T s, R $1/s')
    .replace(/\.(report|errors)-\d{8}-\d{6}\./g, '.$1-STAMP.');
  if (folder) text = text.replaceAll(folder, 'DIR');
  return text;
}

/** The summary line of a push, without its clock readings: `stock push: 52 applied; 2 requests, 0 retries, 0 throttled (429)`. */
export function summaryLine(stderr: string): string {
  const line = stderr
    .split('\n')
    .find((candidate) => /^stock push: .*; \d+ requests?, \d+ retr(?:y|ies), \d+ throttled \(429\);/.test(candidate));
  if (!line) throw new Error(`no summary line in:\n${stderr}`);
  return line.replace(/; \d+\.\d s, \d+ items\/s$/, '');
}

/** The numbers of the summary line. */
export function summaryCounts(stderr: string): { requests: number; retries: number; throttled: number } {
  const match = /; (\d+) requests?, (\d+) retr(?:y|ies), (\d+) throttled \(429\)/.exec(summaryLine(stderr));
  return { requests: Number(match?.[1]), retries: Number(match?.[2]), throttled: Number(match?.[3]) };
}

/** The warnings of a run's stderr, each the whole line. */
export function warningLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warning:'));
}

/** The orders an `orders poll --out-dir` wrote in FOLDER, one `<id>.json` each, parsed, in the order of their ids. */
export function ordersInOutDir(folder: string): unknown[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .toSorted((a, b) => Number.parseInt(a) - Number.parseInt(b))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as unknown);
}
