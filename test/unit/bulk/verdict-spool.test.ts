/**
 * The spool of verdicts between the validating and the sending pass (issue 14): what goes in comes out
 * in order and unchanged, across read chunks and with any character in a cell; the file is private
 * and gone once removed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type JudgedRecord,
  removeAbandonedSpools,
  type SpooledRecord,
  VerdictSpool,
} from '../../../src/bulk/verdict-spool.js';
import { ExitCode, UsageError } from '../../../src/base/errors.js';
import { temporaryFolderError } from '../../../src/io/temporary-folder.js';
import { copyToPrivateTemporaryFile } from '../../../src/lib/private-temporary-file.js';
import { temporaryFolder } from '../../support/temporary.js';

/** The records read back as plain objects: a spooled record parses its value and cells when asked for them. */
async function readAll<T>(spool: VerdictSpool<T>): Promise<JudgedRecord<T>[]> {
  const records: JudgedRecord<T>[] = [];
  for await (const batch of spool.read())
    for (const record of batch) {
      const plain: JudgedRecord<T> = { line: record.line, key: record.key, original: record.original };
      if (record.column !== undefined) plain.column = record.column;
      if (record.element !== undefined) plain.element = record.element;
      if (record.row !== undefined) plain.row = record.row;
      if (record.message === undefined) plain.value = record.value;
      else plain.message = record.message;
      records.push(plain);
    }
  return records;
}

/** The records written to a fresh spool and read back, the spool removed. */
async function roundTrip<T>(written: JudgedRecord<T>[]): Promise<JudgedRecord<T>[]> {
  const spool = new VerdictSpool<T>();
  for (const record of written) spool.add(record);
  spool.finish();
  try {
    return await readAll(spool);
  } finally {
    spool.remove();
  }
}

describe('VerdictSpool', () => {
  it('gives back every verdict in order, valid and invalid, with awkward cells', async () => {
    const written: JudgedRecord<{ sku: string; quantity: number }>[] = [
      { line: 2, key: 'A', original: ['A', '1'], value: { sku: 'A', quantity: 1 } },
      { line: 3, key: 'B"\n\r\u2028', original: ['B"\n\r\u2028', 'x;y'], message: 'Property [quantity] … (x)' },
      { line: 5, key: 'São', original: { sku: 'São', __proto__x: 1 }, value: { sku: 'São', quantity: 0 } },
      { line: 6, key: '', original: [], message: '' },
    ];
    expect(await roundTrip(written)).toEqual(written);
  });

  it('keeps the column and element of a record of minified JSON, and adds nothing to the others', async () => {
    const written: JudgedRecord<{ sku: string }>[] = [
      { line: 1, column: 2, element: 0, key: 'A', original: { sku: 'A' }, value: { sku: 'A' } },
      { line: 1, column: 15, element: 1, key: 'B', original: { sku: 'B' }, message: 'bad' },
      { line: 2, key: 'C', original: { sku: 'C' }, value: { sku: 'C' } },
    ];
    expect(await roundTrip(written)).toStrictEqual(written);
  });

  it('keeps the spreadsheet row of a CSV record below a cell with a line break, and adds nothing where row and line agree', async () => {
    const written: JudgedRecord<{ sku: string }>[] = [
      { line: 2, key: 'A', original: ['A'], value: { sku: 'A' } },
      { line: 4, row: 3, key: 'B', original: ['B'], message: 'bad' },
      { line: 5, row: 4, key: 'C', original: ['C'], value: { sku: 'C' } },
    ];
    expect(await roundTrip(written)).toStrictEqual(written);
  });

  it('reads 200,000 verdicts back across many chunks and write flushes', async () => {
    const spool = new VerdictSpool<{ sku: string }>();
    for (let line = 2; line < 200_002; line++)
      spool.add(
        line % 1000 === 0
          ? { line, key: `K${line}`, original: [`K${line}`], message: `bad ${line}` }
          : { line, key: `K${line}`, original: [`K${line}`, 'é'.repeat(line % 7)], value: { sku: `K${line}` } },
      );
    spool.finish();
    try {
      const records = await readAll(spool);
      expect(records.length).toBe(200_000);
      expect(records.map((record) => record.line)).toEqual(Array.from({ length: 200_000 }, (_, index) => index + 2));
      expect(records.filter((record) => record.message !== undefined).length).toBe(200);
      expect(records[199_997]).toEqual({
        line: 199_999,
        key: 'K199999',
        original: ['K199999', 'é'.repeat(199_999 % 7)],
        value: { sku: 'K199999' },
      });
    } finally {
      spool.remove();
    }
  });

  it('gives a valid record’s value back as the exact JSON text JSON.stringify wrote, for a request body to hold as it is', async () => {
    const spool = new VerdictSpool<Record<string, string | number>>();
    const values: Record<string, string | number>[] = [
      { sku: 'A\t"x"\u2028', qty: 1.5, preço: -0 },
      { 'a\tb': 'é\n', n: 1e21 },
    ];
    spool.add({ line: 2, key: 'A\t"x"', original: ['A\t"x"', '1,5'], value: values[0] });
    spool.add({ line: 3, key: 'B', original: ['B'], value: values[1] });
    spool.finish();
    try {
      const read = [];
      for await (const batch of spool.read()) read.push(...batch);
      const [first] = read as [(typeof read)[number]];
      expect(read.map((record) => record.json)).toEqual(values.map((value) => JSON.stringify(value)));
      expect(read.map((record) => record.key)).toEqual(['A\t"x"', 'B']);
      expect(first.original).toEqual(['A\t"x"', '1,5']);
      // Parsed once, on the first ask.
      expect(first.original).toBe(first.original);
    } finally {
      spool.remove();
    }
  });

  it('reads back a record longer than one read of the spool, between short ones', async () => {
    const spool = new VerdictSpool<{ note: string }>();
    const long = 'ç'.repeat(200_000);
    const written: JudgedRecord<{ note: string }>[] = [
      { line: 2, key: 'A', original: ['A'], value: { note: 'a' } },
      { line: 3, key: 'B', original: ['B', long], value: { note: long } },
      { line: 4, key: 'C', original: ['C'], message: long },
    ];
    for (const record of written) spool.add(record);
    spool.finish();
    try {
      expect(await readAll(spool)).toEqual(written);
    } finally {
      spool.remove();
    }
  });

  it('is private to its owner, and removed with its folder', () => {
    const spool = new VerdictSpool<unknown>();
    spool.add({ line: 2, key: 'A', original: ['secret'], value: { password: 'secret' } });
    spool.finish();
    expect(statSync(spool.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(spool.path)).mode & 0o777).toBe(0o700);
    spool.remove();
    expect(existsSync(dirname(spool.path))).toBe(false);
    spool.remove();
  });
});

describe('removeAbandonedSpools', () => {
  it('removes the spool of a run that no longer exists, keeps a live run’s and other folders', () => {
    const temporary = temporaryFolder('b2bctl-spool-test-');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    mkdirSync(join(temporary, `b2bctl-verdicts-${dead}-abc`));
    writeFileSync(join(temporary, `b2bctl-verdicts-${dead}-abc`, 'verdicts.ndjson'), '[2,"A",[],1,{"password":"x"}]\n');
    mkdirSync(join(temporary, `b2bctl-verdicts-${process.pid}-def`));
    mkdirSync(join(temporary, 'b2bctl-stdin-xyz'));
    const spool = new VerdictSpool<unknown>(temporary);
    expect(readdirSync(temporary).toSorted()).toEqual(
      [`b2bctl-verdicts-${process.pid}-def`, 'b2bctl-stdin-xyz', basename(dirname(spool.path))].toSorted(),
    );
    spool.remove();
    removeAbandonedSpools(join(temporary, 'missing'));
  });
});

/** The batches of a spool as read, each record as the sending pass gets it. */
async function batchesOf<T>(spool: VerdictSpool<T>): Promise<SpooledRecord<T>[][]> {
  const batches: SpooledRecord<T>[][] = [];
  for await (const batch of spool.read()) batches.push(batch);
  return batches;
}

/** This process's descriptors open on `path`, even removed (/proc/self/fd): parallel-safe, unlike a count of them. */
function descriptorsOn(path: string): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target === path || target === `${path} (deleted)`;
    } catch {
      return false;
    }
  });
}

// 15 characters around the value: `2\t"K"\t1\t` + value + `\t["A"]\n`.
const recordOfLength = (valueLength: number) => ({
  line: 2,
  key: 'K',
  original: ['A'],
  valueJson: `"${'x'.repeat(valueLength - 2)}"`,
});

describe('VerdictSpool: survivors of the mutation run', () => {
  it('a record with neither value nor cells (undefined) comes back as null, not as text that is no JSON', async () => {
    const spool = new VerdictSpool<unknown>();
    spool.add({ line: 2, key: 'A', original: undefined, value: undefined });
    spool.finish();
    try {
      const [[record]] = (await batchesOf(spool)) as [[SpooledRecord<unknown>]];
      expect([record.json, record.value, record.original]).toEqual(['null', null, null]);
    } finally {
      spool.remove();
    }
  });

  it('a valid value is parsed once, on the first ask; an invalid record has none, and asking is no error', async () => {
    const spool = new VerdictSpool<{ sku: string }>();
    spool.add({ line: 2, key: 'A', original: ['A'], value: { sku: 'A' } });
    spool.add({ line: 3, key: 'B', original: ['B'], message: 'bad' });
    spool.finish();
    try {
      const [[valid, invalid]] = (await batchesOf(spool)) as [
        [SpooledRecord<{ sku: string }>, SpooledRecord<{ sku: string }>],
      ];
      expect(valid.value).toEqual({ sku: 'A' });
      expect(valid.value).toBe(valid.value);
      expect(invalid.value).toBeUndefined();
    } finally {
      spool.remove();
    }
  });

  it('a key made only of backslashes (its JSON all escapes) comes back as it was', async () => {
    expect((await roundTrip([{ line: 2, key: '\\\\', original: ['\\\\'], value: 1 }]))[0]?.key).toBe('\\\\');
  });

  it('a last line that lost its newline is still read back', async () => {
    const spool = new VerdictSpool<number>();
    spool.add({ line: 2, key: 'A', original: ['A'], value: 1 });
    spool.add({ line: 3, key: 'B', original: ['B'], value: 2 });
    spool.finish();
    truncateSync(spool.path, statSync(spool.path).size - 1);
    try {
      expect(await readAll(spool)).toEqual([
        { line: 2, key: 'A', original: ['A'], value: 1 },
        { line: 3, key: 'B', original: ['B'], value: 2 },
      ]);
    } finally {
      spool.remove();
    }
  });

  it('gathers records in memory and writes them once 65,536 characters are gathered, not before', () => {
    const spool = new VerdictSpool<string>();
    try {
      spool.add({ ...recordOfLength(10), value: 'x' });
      expect(statSync(spool.path).size).toBe(0);
      spool.add(recordOfLength(65_536 - 25 - 13 - 15));
      expect(statSync(spool.path).size).toBe(0);
      // 13 characters: `2\t"K"\t1\t1\t[]\n`, which make 65,536.
      spool.add({ line: 2, key: 'K', original: [], valueJson: '1' });
      expect(statSync(spool.path).size).toBe(65_536);
      spool.finish();
    } finally {
      spool.remove();
    }
  });

  it('leaves no descriptor open on the spool: after finish (twice), after reading, or removed unfinished', async () => {
    const spool = new VerdictSpool<number>();
    spool.add({ line: 2, key: 'A', original: ['A'], value: 1 });
    expect(descriptorsOn(spool.path)).toHaveLength(1);
    spool.finish();
    spool.finish();
    expect(descriptorsOn(spool.path)).toEqual([]);
    expect(await readAll(spool)).toHaveLength(1);
    expect(descriptorsOn(spool.path)).toEqual([]);
    spool.remove();
    const unfinished = new VerdictSpool<number>();
    const path = unfinished.path;
    unfinished.remove();
    expect(descriptorsOn(path)).toEqual([]);
  });

  it('removes itself when the process exits, and stops listening for that once removed', () => {
    const before = process.listeners('exit');
    const spool = new VerdictSpool<number>();
    const added = process.listeners('exit').filter((listener) => !before.includes(listener));
    expect(added).toHaveLength(1);
    expect(basename(dirname(spool.path))).toMatch(new RegExp(`^b2bctl-verdicts-${process.pid}-`));
    (added[0] as () => void)();
    expect(existsSync(dirname(spool.path))).toBe(false);
    expect(process.listeners('exit')).toEqual(before);
  });

  // A run killed by SIGKILL (the OOM killer, a CI timeout) left its copy of stdin, every customer's password, in
  // $TMPDIR for good: the next run removed only the verdicts of the dead PID.
  it('removes the copy of stdin and of a workbook a dead run left, keeps a live run’s', () => {
    const temporary = temporaryFolder('b2bctl-spool-test-');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    for (const name of [`b2bctl-stdin-${dead}-abc`, `b2bctl-workbook-${dead}-abc`]) {
      mkdirSync(join(temporary, name));
      writeFileSync(join(temporary, name, 'stdin'), 'cpf,52998224725,Ana,a9@ex.com.br,Senha#A1x\n');
    }
    mkdirSync(join(temporary, `b2bctl-stdin-${process.pid}-def`));
    removeAbandonedSpools(temporary);
    expect(readdirSync(temporary)).toEqual([`b2bctl-stdin-${process.pid}-def`]);
  });

  it('names the copy of stdin with its PID, so a later run can find it', async () => {
    const copy = await copyToPrivateTemporaryFile(Readable.from(['a;b\n']), { prefix: 'b2bctl-stdin-', name: 'stdin' });
    expect(basename(dirname(copy.path))).toMatch(new RegExp(`^b2bctl-stdin-${process.pid}-`));
    copy.remove();
  });

  it('leaves alone a folder whose name only contains a spool`s name', () => {
    const temporary = temporaryFolder('b2bctl-spool-test-');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    mkdirSync(join(temporary, `old-b2bctl-verdicts-${dead}-abc`));
    removeAbandonedSpools(temporary);
    expect(readdirSync(temporary)).toEqual([`old-b2bctl-verdicts-${dead}-abc`]);
  });
});

describe('VerdictSpool: a temporary folder it cannot write in', () => {
  it('a missing TMPDIR: exit 2, naming the folder and TMPDIR, nothing sent (it was a bare ENOENT, exit 1)', () => {
    const missing = join(temporaryFolder(), 'gone', 'deeper');
    let thrown: unknown;
    let spool: VerdictSpool<unknown> | undefined;
    try {
      spool = new VerdictSpool(missing);
    } catch (error) {
      thrown = error;
    }
    expect(spool).toBeUndefined();
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(ExitCode.usage);
    expect((thrown as Error).message).toBe(
      `Cannot write the run's private list of its records' verdicts in the temporary folder ${missing} (ENOENT: no such file or directory); nothing was sent. It needs about as much free room as the input: make room there, or set TMPDIR to a writable folder with room.`,
    );
  });

  it("a full disk is said the same way; an error that is not the system's passes as it is", () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect((temporaryFolderError(full, 'a copy', '/tmp/x') as Error).message).toMatch(
      /^Cannot write a copy in the temporary folder \/tmp\/x \(ENOSPC: no space left on device\); nothing was sent\./,
    );
    const other = new TypeError('not a system error');
    expect(temporaryFolderError(other, 'a copy')).toBe(other);
  });
});
