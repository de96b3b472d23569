/**
 * The errors file in the input's order (docs/bulk-runs.md), whatever order the outcomes came in: an invalid record
 * found while validating is written before the records sent ahead of it fail, and concurrent answers come in any
 * order. An operator fixes its rows beside the ERP's list, so they are put in the file's line order when the run ends.
 */
import fs, { readdirSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { createHeader } from '../../support/customers.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();

const customer = (document: string, email: string) =>
  `cpf,${document},Cliente ${email},${email}@example.com,11987654321,Senha#1,01310-100,10`;

/** The errors file's `row` column, top to bottom. */
function errorsRows(folder: string, input: string, given?: string): string[] {
  const name = given ?? (readdirSync(folder).find((file) => file.startsWith(`${input}.errors-`)) as string);
  const rows = parse(readFileSync(join(folder, name), 'utf8'), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  return rows.map((row) => row.row as string);
}

describe('the errors file of a run whose outcomes came out of order', () => {
  it('an invalid record (line 4) found before lines 2 and 3 were refused by the platform: rows 2, 3, 4', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(
      422,
      JSON.stringify({ status: 'UNPROCESSABLE_ENTITY', message: 'Customer refused' }),
    );
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'c.csv', '--skip-invalid', '--no-input'],
      {
        'c.csv': `${createHeader}\n${customer('529.982.247-25', 'ana')}\n${customer('111.444.777-35', 'bia')}\n${customer('123', 'caio')}\n`,
      },
    );
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer', 'POST /v1/customer']);
    expect(errorsRows(folder, 'c')).toEqual(['2', '3', '4']);
  });

  it('answers that come in reverse order (line 3 answered before line 2): rows 2, 3', async () => {
    const { result, folder } = await runWithReversedAnswers();
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('in the order the answers came');
    const reportName = readdirSync(folder).find((file) => file.startsWith('c.report-')) as string;
    // The report stays in answer order: line 3 first, proof that the answers came reversed.
    expect(readFileSync(join(folder, reportName), 'utf8').split('\r\n')[1]?.startsWith('3,')).toBe(true);
    expect(errorsRows(folder, 'c')).toEqual(['2', '3']);
  });
});

/**
 * Two refused customers whose answers come reversed: the first request is answered only once the second has come,
 * so line 3's row is written first and the errors file is put in order when the run ends.
 */
function runWithReversedAnswers(extraArgs: readonly string[] = [], extraFiles: Record<string, string> = {}) {
  let releaseFirst: (() => void) | undefined;
  let requests = 0;
  platform.routes['POST /v1/customer'] = (request, body, response) => {
    const refuse = () =>
      answerJsonText(422, JSON.stringify({ status: 'UNPROCESSABLE_ENTITY', message: 'Customer refused' }))(
        request,
        body,
        response,
      );
    requests++;
    if (requests === 1) {
      releaseFirst = refuse;
      return;
    }
    refuse();
    response.on('finish', () => releaseFirst?.());
  };
  return runInScriptedWorkspace(
    platform,
    ['customer', 'create', 'c.csv', '--concurrency', '2', '--no-input', ...extraArgs],
    {
      'c.csv': `${createHeader}\n${customer('529.982.247-25', 'ana')}\n${customer('111.444.777-35', 'bia')}\n`,
      ...extraFiles,
    },
  );
}

/**
 * The file system failing the errors file's reordering: the copy it writes beside the errors file (`.c.errors-….tmp`)
 * fails its writes with ENOSPC, as on a full disk, or its rename over the errors file fails with EIO. Swapped in on
 * node:fs itself (its ESM exports synced), not by vi.mock: the commands tests share one module graph (isolate: false).
 */
const realOpenSync = fs.openSync;
const realWriteSync = fs.writeSync;
const realRenameSync = fs.renameSync;
const realFsyncSync = fs.fsyncSync;
const reorderCopy = /(?:^|[/\\])\.c\.errors-[^/\\]*\.tmp$/;

function failReorder(fault: 'ENOSPC' | 'EIO'): void {
  const copies = new Set<number>();
  const failure = (call: string) =>
    Object.assign(new Error(`${fault}: ${fault === 'ENOSPC' ? 'no space left on device' : 'i/o error'}, ${call}`), {
      code: fault,
    });
  (fs as { openSync: unknown }).openSync = (path: fs.PathLike, ...rest: unknown[]) => {
    const descriptor = (realOpenSync as (...args: unknown[]) => number)(path, ...rest);
    if (reorderCopy.test(String(path))) copies.add(descriptor);
    return descriptor;
  };
  (fs as { writeSync: unknown }).writeSync = (descriptor: number, ...rest: unknown[]) => {
    if (fault === 'ENOSPC' && copies.has(descriptor)) throw failure('write');
    return (realWriteSync as (...args: unknown[]) => number)(descriptor, ...rest);
  };
  (fs as { renameSync: unknown }).renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    if (fault === 'EIO' && reorderCopy.test(String(from))) throw failure('rename');
    realRenameSync(from, to);
  };
  syncBuiltinESMExports();
}

describe('an errors file whose reordering fails', () => {
  afterEach(() => {
    fs.openSync = realOpenSync;
    fs.writeSync = realWriteSync;
    fs.renameSync = realRenameSync;
    fs.fsyncSync = realFsyncSync;
    syncBuiltinESMExports();
  });

  it.each([
    ['ENOSPC', 'ENOSPC: no space left on device'],
    ['EIO', 'EIO: i/o error'],
  ] as const)(
    'a %s on the way is said in one warning naming the file and that it is in answer order; the file stays whole, the exit code 1',
    async (fault, cause) => {
      failReorder(fault);
      const { result, folder } = await runWithReversedAnswers();
      expect(result.code).toBe(1);
      expect(platform.received).toEqual(['POST /v1/customer', 'POST /v1/customer']);
      const name = readdirSync(folder).find((file) => file.startsWith('c.errors-')) as string;
      const warnings = result.stderr.split('\n').filter((line) => line.includes('in the order the answers came'));
      expect(warnings).toEqual([
        `warning: ${name}: the errors file is in the order the answers came, not the input's: putting it in line order failed (${cause}); every row is there, and its row column gives the input order.`,
      ]);
      // Whole, in answer order (line 3 first), and no copy left beside it.
      expect(errorsRows(folder, 'c')).toEqual(['3', '2']);
      expect(readdirSync(folder).filter((file) => file.endsWith('.tmp'))).toEqual([]);
    },
  );
});

/**
 * What the file system is asked while the errors file is put in order, as `open PATH`, `fsync PATH` (the path the
 * descriptor was opened on) and `rename FROM -> TO`, file names only.
 */
function recordFileCalls(): string[] {
  const calls: string[] = [];
  const opened = new Map<number, string>();
  (fs as { openSync: unknown }).openSync = (path: fs.PathLike, ...rest: unknown[]) => {
    const descriptor = (realOpenSync as (...args: unknown[]) => number)(path, ...rest);
    // Resolved when opened: the run's own folder is `.` to it.
    opened.set(descriptor, basename(resolve(String(path))));
    return descriptor;
  };
  (fs as { fsyncSync: unknown }).fsyncSync = (descriptor: number) => {
    calls.push(`fsync ${opened.get(descriptor) ?? descriptor}`);
    realFsyncSync(descriptor);
  };
  (fs as { renameSync: unknown }).renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    calls.push(`rename ${basename(String(from))} -> ${basename(String(to))}`);
    realRenameSync(from, to);
  };
  syncBuiltinESMExports();
  return calls;
}

describe('putting the errors file in order survives a power cut and a kill (a user test)', () => {
  afterEach(() => {
    fs.openSync = realOpenSync;
    fs.fsyncSync = realFsyncSync;
    fs.renameSync = realRenameSync;
    syncBuiltinESMExports();
  });

  it('the copy in order is fsynced before it is renamed over the errors file, and the folder after the rename', async () => {
    const calls = recordFileCalls();
    const { result, folder } = await runWithReversedAnswers();
    expect(result.code).toBe(1);
    expect(errorsRows(folder, 'c')).toEqual(['2', '3']);
    const errorsName = readdirSync(folder).find((file) => file.startsWith('c.errors-')) as string;
    const rename = calls.findIndex(
      (call) => call.startsWith('rename .c.errors-') && call.endsWith(` -> ${errorsName}`),
    );
    expect(rename).toBeGreaterThan(-1);
    const copy = calls[rename]!.slice('rename '.length).split(' -> ')[0]!;
    expect(calls.slice(0, rename)).toContain(`fsync ${copy}`);
    expect(calls.slice(rename + 1)).toContain(`fsync ${basename(folder)}`);
  });

  it('a copy a killed reordering left beside the errors file is removed by the next run writing it; another file’s is kept', async () => {
    const left = '.c.errors.csv.0123456789abcdef.tmp';
    const another = '.c.report.csv.0123456789abcdef.tmp';
    const { result, folder } = await runWithReversedAnswers(['--errors', 'c.errors.csv'], {
      [left]: 'half a copy',
      [another]: 'not the errors file',
    });
    expect(result.code).toBe(1);
    expect(errorsRows(folder, 'c', 'c.errors.csv')).toEqual(['2', '3']);
    expect(readdirSync(folder).filter((file) => file.endsWith('.tmp'))).toEqual([another]);
  });

  it('the copy an earlier run killed while putting its own errors file in order left is removed when the next run ends', async () => {
    const earlier = 'c.errors-20261120-020000.csv';
    const record = {
      version: 1,
      command: 'customer create',
      profile: 'default',
      baseUrl: platform.url,
      baseUrlFromFlag: false,
      input: { path: 'c.csv' },
      flags: {},
      // Killed: its record says running, of a process gone (above the largest pid Linux gives).
      state: { kind: 'running', pid: 2 ** 22 + 1 },
    };
    const left = `.${earlier}.0123456789abcdef.tmp`;
    const { result, folder } = await runWithReversedAnswers([], {
      'c.report-20261120-020000.csv': 'line,key,outcome,status,id,message,row\r\n',
      'c.report-20261120-020000.meta.json': JSON.stringify(record),
      [earlier]: "the earlier run's errors\n",
      [left]: 'half a copy of them',
    });
    expect(result.code).toBe(1);
    const files = readdirSync(folder);
    expect(files).not.toContain(left);
    expect(files).toContain(earlier);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});
