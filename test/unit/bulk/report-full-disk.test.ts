/**
 * A disk that fills up while the report is written: node's writeSync writes what fits and returns how much, the rest
 * dropped without an error. The report must hold whole rows only, and the books must say which answers it lacks.
 * The file system here is node's own with a quota on the report's descriptor: the first bytes past it are written
 * short, the next write fails with ENOSPC, as on a full disk.
 */
import fs, { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendingCounts } from '../../../src/bulk/closing-line.js';
import { RunLedger } from '../../../src/bulk/run-ledger.js';
import type { Outcome } from '../../../src/bulk/report.js';
import type { OpenedInput } from '../../../src/io/input/open-input.js';
import { testContext } from '../../support/test-context.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

/** The report's descriptor, and the bytes its disk still has room for. */
const disk = { descriptor: -1, room: Number.POSITIVE_INFINITY };
const realWriteSync = fs.writeSync;

/**
 * node's writeSync with a quota on the report's descriptor. Swapped in on node:fs itself (its ESM exports synced), not
 * by vi.mock: the unit tests share one module graph (isolate: false), where a module mock may never reach src.
 */
function writeSyncWithQuota(descriptor: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]): number {
  if (descriptor !== disk.descriptor || typeof data === 'string')
    return (realWriteSync as (...args: unknown[]) => number)(descriptor, data, ...rest);
  if (disk.room === 0)
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
  const [offset = 0, length = data.byteLength - (offset as number)] = rest as number[];
  const fits = Math.min(length, disk.room);
  disk.room -= fits;
  return realWriteSync(descriptor, data, offset, fits);
}

beforeAll(() => {
  (fs as { writeSync: unknown }).writeSync = writeSyncWithQuota;
  syncBuiltinESMExports();
});
afterAll(() => {
  fs.writeSync = realWriteSync;
  syncBuiltinESMExports();
});
afterEach(() => {
  disk.descriptor = -1;
  disk.room = Number.POSITIVE_INFINITY;
  removeTemporaryFolders();
});

const rows = (from: number, count: number, outcome: Outcome = 'applied') =>
  Array.from({ length: count }, (_, index) => ({
    row: { line: from + index, key: `GEN-${from + index}`, outcome, status: 200 },
    original: [`GEN-${from + index}`, '1'],
  }));

async function ledgerIn(folder: string): Promise<RunLedger> {
  const ledger = await RunLedger.open({
    context: testContext().context,
    inputPath: join(folder, 'stock.csv'),
    input: { csv: { delimiter: ';', decimal: ',', headers: ['sku', 'quantity'] } } as unknown as OpenedInput,
    unit: 'items',
    total: 100,
  });
  disk.descriptor = (ledger.report as unknown as { descriptor: number }).descriptor;
  return ledger;
}

describe('a report on a disk that fills up', () => {
  it('a batch the disk cuts short is taken back whole: the report never ends in half a row', async () => {
    const ledger = await ledgerIn(temporaryFolder());
    ledger.record(rows(1, 10));
    const before = readFileSync(ledger.report.path, 'utf8');
    // Room for a row and a half of the next batch.
    disk.room = 60;
    expect(() => ledger.record(rows(11, 10))).toThrow(`Cannot write ${ledger.report.path} (ENOSPC).`);
    expect(readFileSync(ledger.report.path, 'utf8')).toBe(before);
    expect(before.endsWith('\r\n')).toBe(true);
    ledger.close();
  });

  it('the answers the report could not hold are counted as done, and named as missing from it', async () => {
    const ledger = await ledgerIn(temporaryFolder());
    ledger.record(rows(1, 10));
    disk.room = 0;
    // The requests in flight finish after the first failure: their answers come, and cannot be written either.
    expect(() => ledger.record(rows(11, 10))).toThrow('(ENOSPC)');
    expect(() => ledger.record(rows(21, 5, 'rejected'))).toThrow('(ENOSPC)');
    expect(ledger.recorded).toBe(10);
    expect(ledger.notInReport).toBe(15);
    expect(sendingCounts(['applied', 'rejected'], ledger, 100, 0)).toEqual({
      counts: '20 applied, 5 rejected, 75 not sent',
      outcomes: { applied: 20, rejected: 5, 'not sent': 75 },
      notSent: 75,
    });
    ledger.close();
  });
});
