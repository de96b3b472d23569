/** The reasons a run's closing lines give for its failed records (src/bulk/failure-reasons.ts). */
import { describe, expect, it } from 'vitest';
import { FailureReasons } from '../../../src/bulk/failure-reasons.js';

function failed(line: number, message: string, fixedBy?: string) {
  return { line, outcome: 'failed' as const, message, ...(fixedBy === undefined ? {} : { fixedBy }) };
}

describe('FailureReasons', () => {
  it('counts messages that differ only in the words naming the record as one reason, the most common first', () => {
    const reasons = new FailureReasons();
    reasons.add(failed(2, 'CEP 01001-000 not found'));
    reasons.add(failed(3, 'Document 100.007.919-89 is registered (e-mail ana@example.com)'));
    reasons.add(failed(4, 'Document A1.B2C.3D4/0001-91 is registered (e-mail bia@example.com)'));
    reasons.add({ line: 5, row: 4, outcome: 'rejected', message: 'SKU GEN-0000005 unknown' });
    reasons.add(failed(6, 'Document 10.314.187/0001-51 is registered (e-mail caio@example.com)'));
    reasons.add(failed(7, 'CEP 99999-999 not found'));
    reasons.add({ line: 8, outcome: 'unknown' });
    reasons.add(failed(9, `a page long: ${'x'.repeat(300)}\nsecond line`));
    expect(reasons.closingLines('customers', { toTerminal: true })).toEqual([
      'why, 3 customers (first at line 3): Document 100.007.919-89 is registered (e-mail ana@example.com)',
      'why, 2 customers (first at line 2): CEP 01001-000 not found',
      'why, 1 customer (line 5 (row 4)): SKU GEN-0000005 unknown',
      'why, 2 other customers: 2 other reasons, in the report',
    ]);
    expect([...reasons.fixFlags]).toEqual([]);
  });

  it('shortens a long message to one line, and gathers the flags a failed record needs', () => {
    const reasons = new FailureReasons();
    reasons.add(failed(2, `first line\n  ${'y'.repeat(250)}`));
    reasons.add(failed(3, 'Document 100.007.919-89 is registered (pass --upsert)', 'upsert'));
    expect(reasons.closingLines('items', { toTerminal: true })).toEqual([
      `why, 1 item (line 2): first line ${'y'.repeat(189)}…`,
      'why, 1 item (line 3): Document 100.007.919-89 is registered (pass --upsert)',
    ]);
    expect([...reasons.fixFlags]).toEqual(['upsert']);
  });

  it('names the reason by its first record in the file, whichever was answered first', () => {
    const reasons = new FailureReasons();
    reasons.add(failed(5, 'CEP 05005-000 not found'));
    reasons.add(failed(3, 'CEP 03003-000 not found'));
    reasons.add(failed(4, 'CEP 04004-000 not found'));
    reasons.add({ line: 1, column: 90, element: 3, outcome: 'failed', message: 'SKU B2 unknown' });
    reasons.add({ line: 1, column: 40, element: 2, outcome: 'failed', message: 'SKU A1 unknown' });
    expect(reasons.closingLines('items', { toTerminal: false })).toEqual([
      'why, 3 items (first at line 3): CEP 03003-000 not found',
      'why, 2 items (first at line 1:40 (element 2)): SKU A1 unknown',
    ]);
  });

  it('off a terminal (a log) keeps a long message whole, still one line', () => {
    const reasons = new FailureReasons();
    reasons.add(failed(2, `first line\n  ${'y'.repeat(250)}`));
    expect(reasons.closingLines('items', { toTerminal: false })).toEqual([
      `why, 1 item (line 2): first line ${'y'.repeat(250)}`,
    ]);
  });

  it('says nothing when nothing failed', () => {
    expect(new FailureReasons().closingLines('customers', { toTerminal: false })).toEqual([]);
  });
});
