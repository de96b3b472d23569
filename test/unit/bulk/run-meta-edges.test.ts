import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkResume,
  describeInput,
  metaPathOf,
  readMeta,
  recordedFlags,
  resumeCommand,
  type RunMeta,
  shellWord,
  writeMeta,
} from '../../../src/bulk/run-meta.js';
import { shaping } from '../../support/shaping-flags.js';
import { ExitCode, InputError, UsageError } from '../../../src/base/errors.js';
import { temporaryFolder } from '../../support/temporary.js';

/** What a resume restores of the interrupted run's flags (checkResume's first answer). */
const restoredOf = (options: Parameters<typeof checkResume>[0]) => checkResume(options).restored;

const folder = temporaryFolder('b2bctl-meta-edges-');

function meta(overrides: Partial<RunMeta> = {}): RunMeta {
  return {
    version: 1,
    command: 'stock push',
    profile: 'lat',
    baseUrl: 'https://lat.example.com',
    baseUrlFromFlag: false,
    input: { path: '/exports/stock.csv', size: 10, fingerprint: 'abc' },
    flags: {},
    ...overrides,
  };
}

function refusalOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was refused');
}

describe('metaPathOf and recordedFlags', () => {
  it.each([
    ['c.report-1.csv', 'c.report-1.meta.json'],
    ['c.report-1.CSV', 'c.report-1.meta.json'],
    ['c.report-1', 'c.report-1.meta.json'],
    ['a.csv.report.csv', 'a.csv.report.meta.json'],
  ])('%s → %s', (reportName, record) => {
    expect(metaPathOf(reportName)).toBe(record);
  });

  it('keeps the flags given, paths made absolute, and leaves out the unset ones', () => {
    expect(
      recordedFlags(shaping, { map: 'maps/erp.json', delimiter: ';', strict: false, route: 'batch', other: 'x' }),
    ).toEqual({ map: resolve('maps/erp.json'), delimiter: ';', route: 'batch' });
    expect(recordedFlags(shaping, { map: undefined, strict: true, route: 'auto' })).toEqual({ strict: true });
    expect(recordedFlags([{ flag: '--limit', key: 'limit', path: true }], { limit: 5 })).toEqual({ limit: 5 });
  });
});

/** A report file in the test folder, for its run record to sit beside. */
function report(name: string): string {
  const path = join(folder, name);
  writeFileSync(path, 'line,key,outcome\r\n');
  return path;
}

describe('writeMeta and readMeta', () => {
  it('writes the record readable by its owner only, indented, ending in a line break', () => {
    const path = report('owner.report-1.csv');
    writeMeta(path, meta());
    const record = metaPathOf(path);
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(readFileSync(record, 'utf8')).toBe(`${JSON.stringify(meta(), null, 2)}\n`);
  });

  it('a report that is not there: an input error naming it and why', () => {
    const missing = join(folder, 'none.report-1.csv');
    const error = refusalOf(() => readMeta(missing));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`${missing}: cannot read the report to resume from (ENOENT).`);
    expect((error as InputError).exitCode).toBe(ExitCode.inputMissing);
  });

  it('a record that is not JSON says so', () => {
    const path = report('garbled.report-1.csv');
    writeFileSync(metaPathOf(path), '{');
    expect(refusalOf(() => readMeta(path)).message).toBe(
      `Cannot resume from ${path}: its run record ${metaPathOf(path)} is unreadable (not JSON), so where its records went is unknown; nothing was sent.`,
    );
  });

  it.each([
    ['another version', { ...meta(), version: 2 }],
    ['no command', { ...meta(), command: 7 }],
    ['no input', { ...meta(), input: 'stock.csv' }],
    ['a null input', { ...meta(), input: null }],
    ['no flags', { ...meta(), flags: undefined }],
    ['no profile', { ...meta(), profile: undefined }],
    ['no base URL', { ...meta(), baseUrl: 42 }],
    ['null', null],
  ])('a record with %s is not a run record', (_name, content) => {
    const path = report(`odd-${_name.replaceAll(' ', '-')}.report-1.csv`);
    writeFileSync(metaPathOf(path), JSON.stringify(content));
    const error = refusalOf(() => readMeta(path));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      `Cannot resume from ${path}: ${metaPathOf(path)} is not a b2bctl run record; nothing was sent.`,
    );
  });
});

function check(recorded: RunMeta, flags: Record<string, unknown>, input = recorded.input) {
  return restoredOf({
    reportPath: 'r.csv',
    meta: recorded,
    command: 'stock push',
    profile: 'lat',
    baseUrl: 'https://lat.example.com',
    input,
    shaping,
    flags,
  });
}

describe('checkResume at its edges', () => {
  it('the same size with another fingerprint is another file', () => {
    expect(
      refusalOf(() => check(meta(), {}, { path: '/exports/stock.csv', size: 10, fingerprint: 'abd' })).message,
    ).toContain('this input is another file or was changed since (10 bytes)');
  });

  it('a flag the interrupted run did not give, given now, is refused naming its absence', () => {
    expect(refusalOf(() => check(meta(), { delimiter: ',' })).message).toBe(
      'Cannot resume from r.csv: it was written with no --delimiter, this run gives --delimiter ,; nothing was sent.',
    );
  });

  it('a flag at its unset value counts as not given: the recorded value, or the unset one, holds', () => {
    const restored = check(meta({ flags: { strict: true } }), { strict: false, route: 'auto', map: undefined });
    expect(restored).toEqual({ strict: true, route: 'auto', map: undefined, delimiter: undefined });
  });

  it('a relative path given again names the recorded absolute one', () => {
    expect(() => check(meta({ flags: { map: resolve('maps/erp.json') } }), { map: 'maps/erp.json' })).not.toThrow();
  });
});

describe('describeInput', () => {
  it('fingerprints the first 64 KB with SHA-256, and records the size', () => {
    const head = Buffer.alloc(64 * 1024, 'a');
    const one = join(folder, 'one.csv');
    const two = join(folder, 'two.csv');
    writeFileSync(one, Buffer.concat([head, Buffer.from('tail-1')]));
    writeFileSync(two, Buffer.concat([head, Buffer.from('tail-2')]));
    const described = describeInput(one);
    expect(described).toEqual({
      path: '',
      readPath: one,
      size: head.length + 6,
      fingerprint: createHash('sha256').update(head).digest('hex'),
      content: `whole:${createHash('sha256').update(readFileSync(one)).digest('hex')}`,
    });
    expect(describeInput(two).fingerprint).toBe(described.fingerprint);
    // The same size and first 64 KB: only the whole content tells the two apart.
    expect(describeInput(two).content).not.toBe(described.content);
  });

  it('a resume compares the whole content when the run recorded it: a change past 64 KB is another input', () => {
    const head = Buffer.alloc(64 * 1024, 'a');
    const input = join(folder, 'nightly.csv');
    writeFileSync(input, Buffer.concat([head, Buffer.from('GEN-1;92352\n')]));
    const recorded = describeInput(input);
    writeFileSync(input, Buffer.concat([head, Buffer.from('GEN-1;12352\n')]));
    const now = { ...describeInput(input), path: recorded.path };
    expect(() => check(meta({ input: { ...recorded, path: input } }), {}, { ...now, path: input })).toThrow(
      /this input is another file or was changed since/,
    );
    // A run record of an earlier version has no content hash: the fingerprint and size decide, as before.
    const older = { path: input, size: recorded.size, fingerprint: recorded.fingerprint };
    expect(() => check(meta({ input: older }), {}, { ...now, path: input })).not.toThrow();
  });

  it('a file shorter than 64 KB is hashed whole', () => {
    const small = join(folder, 'small.csv');
    writeFileSync(small, 'sku;qty\n');
    expect(describeInput(small).fingerprint).toBe(createHash('sha256').update('sku;qty\n').digest('hex'));
  });
});

describe('shellWord and resumeCommand', () => {
  it.each([
    ['plain_word-1.csv', 'plain_word-1.csv'],
    ['a@b%c+d=e:f,g/h', 'a@b%c+d=e:f,g/h'],
    ['', "''"],
    ['two words', "'two words'"],
    ['$HOME', "'$HOME'"],
  ])('%j → %s', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted);
  });

  it('leaves out switches that are off and the base URL that was not a flag', () => {
    expect(
      resumeCommand(meta({ flags: { strict: false, delimiter: ';' } }), shaping, 'stock.csv', 'stock.report-1.csv'),
    ).toBe("b2bctl stock push stock.csv --profile lat --delimiter ';' --resume stock.report-1.csv");
  });
});

describe('survivors of the mutation run', () => {
  it('a switch not given at all (undefined, not false) is restored, not refused', () => {
    expect(check(meta({ flags: { strict: true } }), { route: 'auto' })).toMatchObject({ strict: true });
  });

  it('a pacing flag may change on resume: the new value is taken into the record it returns, nothing refused', () => {
    const recorded = meta({ flags: { rate: 5 } });
    const { record } = checkResume({
      reportPath: 'r.csv',
      meta: recorded,
      command: 'stock push',
      profile: 'lat',
      baseUrl: 'https://lat.example.com',
      input: recorded.input,
      shaping: [{ flag: '--rate', key: 'rate', pacing: true }],
      flags: { rate: 10 },
    });
    expect(record.flags.rate).toBe(10);
    // A check: the record as read is left as it was; the caller writes the one returned.
    expect(recorded.flags.rate).toBe(5);
  });

  it.skipIf(!existsSync('/proc/self/fd'))('describeInput closes the file it fingerprints (no /proc: skipped)', () => {
    const small = join(folder, 'closed.csv');
    writeFileSync(small, 'sku;qty\n');
    describeInput(small);
    // Names, not a count: tests in other threads of this process open and close files meanwhile.
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(join('/proc/self/fd', fd))];
      } catch {
        return [];
      }
    });
    expect(open).not.toContain(small);
  });
});
