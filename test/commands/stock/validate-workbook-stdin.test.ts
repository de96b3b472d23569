/**
 * A workbook on stdin (`stock validate - < estoque.xlsx`) is read as the same file: a zip is read from its end, so
 * stdin is copied to a private temporary file (0600 in a 0700 folder) and read from there with the reader of a named
 * file, never gathered in memory. The copy's name is gone as soon as the zip is open, and is gone after an error
 * and after Ctrl-C while stdin was still coming.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InterruptedError } from '../../../src/base/errors.js';
import { stockCatalogue } from '../../../src/commands/stock/stock-input.js';
import type { InputRecord } from '../../../src/io/input/open-input.js';
import { openAnyInput } from '../../../src/io/input/workbook-or-text.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { maskClock } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixtures = join(repoRoot, 'test', 'fixtures');
const workbooks = [
  ['xlsx', join(fixtures, 'workbooks', 'estoque.xlsx')],
  ['ods', join(fixtures, 'libreoffice', 'estoque.ods')],
] as const;
const leftOut = ['--ignore-column', 'descrição', '--ignore-column', 'atualizado em'];

// Made before the temporary folder is replaced, so it is not among what b2bctl leaves there.
const configDir = freshConfigDir();

/** The system's temporary folder for this test alone, so what b2bctl leaves there can be listed. */
let temporary: string;
beforeEach(() => {
  temporary = temporaryFolder('b2bctl-test-tmp-');
  vi.stubEnv('TMPDIR', temporary);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Every file and folder b2bctl left in the temporary folder. */
function leftInTemporary(): string[] {
  return readdirSync(temporary, { recursive: true }).map(String);
}

const validate = (args: string[], stdin?: Buffer) =>
  runCommandLine(['stock', 'validate', ...args, ...leftOut], { configDir, stdin });

describe('stock validate - with a workbook on stdin', () => {
  it.each(workbooks)(
    '.%s: the same lines, problems and exit code as the file, nothing left behind',
    async (_, path) => {
      const fromFile = await validate([path]);
      const fromStdin = await validate(['-'], readFileSync(path));
      expect(maskClock(fromFile.stderr)).toContain('4 records, 4 valid, 0 invalid');
      expect({ code: fromStdin.code, stderr: maskClock(fromStdin.stderr).replaceAll('stdin', 'FILE') }).toEqual({
        code: fromFile.code,
        stderr: maskClock(fromFile.stderr).replaceAll(path, 'FILE'),
      });
      expect(leftInTemporary()).toEqual([]);
    },
  );

  it('a workbook with a problem: the same cell named, exit 65, nothing left behind', async () => {
    // The SKU column of this workbook holds number cells: refused by their cell reference.
    const path = join(fixtures, 'workbooks', 'estoque-variado.xlsx');
    const fromFile = await validate([path]);
    const fromStdin = await validate(['-'], readFileSync(path));
    expect(fromStdin.code).toBe(65);
    expect(fromFile.code).toBe(65);
    expect(maskClock(fromStdin.stderr).replaceAll('stdin', 'FILE')).toBe(
      maskClock(fromFile.stderr).replaceAll(path, 'FILE'),
    );
    expect(leftInTemporary()).toEqual([]);
  });

  it('a workbook cut short: the damaged-zip error, exit 65, nothing left behind', async () => {
    const bytes = readFileSync(workbooks[0][1]).subarray(0, 3000);
    const result = await validate(['-'], bytes);
    expect(result.stderr).toContain(
      'error: stdin: cannot read the workbook (end of central directory record signature not found); the file is damaged or cut short.',
    );
    expect(result.code).toBe(65);
    expect(leftInTemporary()).toEqual([]);
  });
});

describe("the workbook reader's copy of stdin", () => {
  it.each(workbooks)('.%s: gone once the zip is open, before a row is read', async (_, path) => {
    const input = await openAnyInput({
      path: '-',
      stdin: Readable.from([readFileSync(path)]),
      catalogue: stockCatalogue,
      ignoredColumns: ['descrição', 'atualizado em'],
      warn: () => {},
    });
    // Killed now, the process would leave nothing: the rows are read through the open descriptor.
    expect(leftInTemporary()).toEqual([]);
    const records: InputRecord[] = [];
    for await (const record of input.records) records.push(record);
    expect(records.map((record) => record.values.sku)).toHaveLength(4);
  });

  it('is private while it is written, and gone after Ctrl-C while stdin was still coming', async () => {
    const stdin = new PassThrough();
    const interrupt = new AbortController();
    const bytes = readFileSync(workbooks[0][1]);
    const opening = openAnyInput({
      path: '-',
      stdin,
      catalogue: stockCatalogue,
      interrupt: interrupt.signal,
      warn: () => {},
    });
    stdin.write(bytes.subarray(0, 4096));
    const copy = await vi.waitFor(
      () => {
        const found = leftInTemporary().find((name) => name.endsWith('stdin.xlsx'));
        if (found === undefined) throw new Error('no copy of stdin yet');
        return found;
      },
      { timeout: 30_000, interval: 20 },
    );
    expect(statSync(join(temporary, copy)).mode & 0o777).toBe(0o600);
    expect(statSync(join(temporary, copy, '..')).mode & 0o777).toBe(0o700);
    interrupt.abort('SIGINT');
    await expect(opening).rejects.toThrow(InterruptedError);
    await expect(opening).rejects.toThrow('Interrupted while reading stdin; nothing was sent.');
    expect(leftInTemporary()).toEqual([]);
  });
});
