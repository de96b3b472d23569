import { describe, expect, it } from 'vitest';
import { IntakeSummary } from '../../../src/commands/webhook/intake-summary.js';

describe('IntakeSummary', () => {
  it('says at stop what was counted since the last line, and nothing when nothing happened', () => {
    const log: string[] = [];
    const summary = new IntakeSummary((line) => log.push(line));
    summary.start(3_600_000);
    summary.count('orders');
    summary.count('orders');
    summary.count('customers');
    summary.duplicate();
    summary.stop();
    expect(log).toEqual(['Stored 3 events since the last summary (customers 1, orders 2); 1 redelivery recognised.']);
    const quiet: string[] = [];
    const idle = new IntakeSummary((line) => quiet.push(line));
    idle.start(3_600_000);
    idle.stop();
    expect(quiet).toEqual([]);
  });
});
