import { describe, expect, it } from 'vitest';
import { validationCounts } from '../../../src/bulk/closing-line.js';

describe('validationCounts: what a run that sent nothing found', () => {
  it.each<[number, boolean, string]>([
    [1, true, '1 record, 1 valid, 0 invalid; dry run, nothing sent'],
    [3, false, '3 records, 3 valid, 0 invalid; nothing sent'],
    [0, false, '0 records, 0 valid, 0 invalid; nothing sent'],
  ])('%i records (dry run: %s): %s', (records, dryRun, expected) => {
    expect(validationCounts({ records, valid: records, invalid: 0 }, dryRun)).toBe(expected);
  });
});
