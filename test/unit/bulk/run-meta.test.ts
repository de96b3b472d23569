import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkResume,
  describeInput,
  metaPathOf,
  readMeta,
  resumeCommand,
  type RunMeta,
  shellWord,
  writeMeta,
} from '../../../src/bulk/run-meta.js';
import { shaping } from '../../support/shaping-flags.js';
import { recordedFlags } from '../../../src/bulk/run-meta.js';
import { UsageError } from '../../../src/base/errors.js';
import { temporaryFolder } from '../../support/temporary.js';

/** What a resume restores of the interrupted run's flags (checkResume's first answer). */
const restoredOf = (options: Parameters<typeof checkResume>[0]) => checkResume(options).restored;

function meta(overrides: Partial<RunMeta> = {}): RunMeta {
  return {
    version: 1,
    command: 'stock push',
    profile: 'lat',
    baseUrl: 'https://lat.example.com',
    baseUrlFromFlag: false,
    input: { path: '/exports/stock.csv', size: 10, fingerprint: 'abc' },
    flags: { delimiter: ';', strict: true, route: 'queue', map: '/maps/erp.json' },
    ...overrides,
  };
}

function check(flags: Record<string, unknown>, changes: Partial<Parameters<typeof checkResume>[0]> = {}) {
  return restoredOf({
    reportPath: 'stock.report-1.csv',
    meta: meta(),
    command: 'stock push',
    profile: 'lat',
    baseUrl: 'https://LAT.example.com/',
    input: { path: '/exports/stock.csv', size: 10, fingerprint: 'abc' },
    shaping,
    flags,
    ...changes,
  });
}

describe('checkResume', () => {
  it('restores every shaping flag the resumed run does not give', () => {
    const flags: Record<string, unknown> = { strict: false, route: 'auto' };
    expect(check(flags)).toEqual({ map: '/maps/erp.json', delimiter: ';', strict: true, route: 'queue' });
    // Returned to be restored, not written into the flags given.
    expect(flags).toEqual({ strict: false, route: 'auto' });
  });

  it('accepts the same flags given again, a relative --map that names the same file included', () => {
    expect(() => check({ map: '/maps/erp.json', delimiter: ';', strict: true, route: 'queue' })).not.toThrow();
  });

  it.each([
    [{ route: 'batch' }, 'it was written with --route queue, this run gives --route batch'],
    [{ delimiter: ',' }, 'it was written with --delimiter ;, this run gives --delimiter ,'],
    [{ map: 'other.json' }, `it was written with --map /maps/erp.json, this run gives --map ${resolve('other.json')}`],
  ])('refuses a flag given with another value: %o', (given, difference) => {
    expect(() => check({ strict: false, route: 'auto', ...given })).toThrow(
      new UsageError(`Cannot resume from stock.report-1.csv: ${difference}; nothing was sent.`),
    );
  });

  it.each([
    [{ command: 'customer create' }, 'it is the report of b2bctl stock push, not of b2bctl customer create'],
    [{ profile: 'default' }, 'it was written for profile "lat", this run uses "default" (add --profile lat)'],
    [
      { baseUrl: 'https://br.example.com' },
      'it was written for https://lat.example.com, this run would send to https://br.example.com (add --base-url https://lat.example.com)',
    ],
    [
      { input: { path: '/exports/stock.csv', size: 11, fingerprint: 'abc' } },
      'it is the report of /exports/stock.csv (10 bytes), and this input is another file or was changed since (11 bytes). Resume with the file that run read, as it was; or send the changed file as a new run without --resume, where records the first run sent may be refused as sent already (customer create: --upsert updates them)',
    ],
  ])('refuses another command, profile, base URL or input: %o', (changes, difference) => {
    expect(() => check({}, changes)).toThrow(
      new UsageError(`Cannot resume from stock.report-1.csv: ${difference}; nothing was sent.`),
    );
  });
});

describe('resumeCommand', () => {
  it('is complete and quoted for the shell', () => {
    const line = resumeCommand(
      meta({
        baseUrlFromFlag: true,
        flags: { delimiter: ';', strict: true, route: 'queue', map: '/maps/my erp.json' },
      }),
      shaping,
      'ERP export.csv',
      'ERP export.report-1.csv',
    );
    expect(line).toBe(
      "b2bctl stock push 'ERP export.csv' --profile lat --base-url https://lat.example.com --map '/maps/my erp.json' --delimiter ';' --strict --route queue --resume 'ERP export.report-1.csv'",
    );
  });

  it('carries the config folder the environment chose, before b2bctl, so it pastes in any shell', () => {
    const line = resumeCommand(
      meta({ baseUrlFromFlag: true, configDir: '/srv/erp sync/b2bctl', flags: {} }),
      shaping,
      'stock.csv',
      'stock.report-1.csv',
    );
    expect(line).toBe(
      "B2BCTL_CONFIG_DIR='/srv/erp sync/b2bctl' b2bctl stock push stock.csv --profile lat --base-url https://lat.example.com --resume stock.report-1.csv",
    );
  });

  it('for a run read from stdin, says that the same input must be piped into it again', () => {
    const line = resumeCommand(
      meta({ input: { path: '-', size: 10, fingerprint: 'abc' }, flags: { route: 'queue' } }),
      shaping,
      '-',
      'stdin.report-1.csv',
    );
    expect(line).toBe(
      'b2bctl stock push - --profile lat --route queue --resume stdin.report-1.csv, with the same input piped into it again (… < FILE, or PROGRAM | …)',
    );
  });

  it('a refusal for another target names the config folder of the interrupted run when this run has another', () => {
    expect(() =>
      restoredOf({
        reportPath: 'stock.report-1.csv',
        meta: meta({ configDir: '/srv/b2bctl' }),
        command: 'stock push',
        profile: 'lat',
        baseUrl: 'http://127.0.0.1:8787',
        input: meta().input,
        shaping,
        flags: {},
        configDir: '/home/ana/.config/b2bctl',
      }),
    ).toThrow(
      new UsageError(
        'Cannot resume from stock.report-1.csv: it was written for https://lat.example.com, this run would send to http://127.0.0.1:8787 (add --base-url https://lat.example.com, and B2BCTL_CONFIG_DIR=/srv/b2bctl before b2bctl); nothing was sent.',
      ),
    );
  });

  it('quotes a single quote', () => {
    expect(shellWord("it's.csv")).toBe("'it'\\''s.csv'");
  });
});

describe('a repeatable shaping flag (--ignore-column)', () => {
  const withList = [...shaping, { flag: '--ignore-column', key: 'ignoreColumns', list: true }];

  it('is recorded as the list given, restored as a list when the resume does not give it, and given back one by one', () => {
    const recorded = recordedFlags(withList, { ignoreColumns: ['Data de cadastro', 'descrição'] });
    expect(recorded).toEqual({ ignoreColumns: '["Data de cadastro","descrição"]' });
    expect(recordedFlags(withList, { ignoreColumns: [] })).toEqual({});
    const interrupted = meta({ flags: recorded });
    const restored = restoredOf({
      reportPath: 'c.report-1.csv',
      meta: interrupted,
      command: 'stock push',
      profile: 'lat',
      baseUrl: 'https://lat.example.com',
      input: interrupted.input,
      shaping: withList,
      flags: {},
    });
    expect(restored.ignoreColumns).toEqual(['Data de cadastro', 'descrição']);
    expect(resumeCommand(interrupted, withList, 'e.csv', 'e.report-1.csv')).toBe(
      "b2bctl stock push e.csv --profile lat --ignore-column 'Data de cadastro' --ignore-column 'descrição' --resume e.report-1.csv",
    );
  });

  it('refuses a resume that leaves out other columns than the interrupted run did', () => {
    const interrupted = meta({ flags: { ignoreColumns: '["descrição"]' } });
    expect(() =>
      restoredOf({
        reportPath: 'c.report-1.csv',
        meta: interrupted,
        command: 'stock push',
        profile: 'lat',
        baseUrl: 'https://lat.example.com',
        input: interrupted.input,
        shaping: withList,
        flags: { ignoreColumns: ['preço'] },
      }),
    ).toThrow('it was written with --ignore-column ["descrição"], this run gives --ignore-column ["preço"]');
  });
});

describe('the run record file', () => {
  it('sits beside the report and reads back; a report without one is refused', () => {
    const folder = temporaryFolder('b2bctl-meta-');
    const report = join(folder, 'c.report-1.csv');
    writeFileSync(report, 'line,key,outcome,status,id,message\r\n');
    expect(() => readMeta(report)).toThrow(/its run record .*c\.report-1\.meta\.json is unreadable \(ENOENT\)/);
    writeMeta(report, meta());
    expect(metaPathOf(report)).toBe(join(folder, 'c.report-1.meta.json'));
    expect(readMeta(report)).toEqual(meta());
  });

  it('fingerprints the first bytes and the size of the input', () => {
    const folder = temporaryFolder('b2bctl-meta-');
    writeFileSync(join(folder, 'a.csv'), 'sku;qty\n1;2\n');
    writeFileSync(join(folder, 'b.csv'), 'sku;qty\n1;3\n');
    const a = describeInput(join(folder, 'a.csv'));
    const b = describeInput(join(folder, 'b.csv'));
    expect(a.size).toBe(b.size);
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });
});
