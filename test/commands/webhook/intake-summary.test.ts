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
    // Refusals are counted by status; a minute of nothing but refusals still gets its line.
    const refusing: string[] = [];
    const refused = new IntakeSummary((line) => refusing.push(line));
    refused.start(3_600_000);
    refused.refused(415);
    refused.refused(400);
    refused.refused(415);
    refused.stop();
    expect(refusing).toEqual([
      'Stored 0 events since the last summary (customers 0, orders 0); 0 redeliveries recognised; 3 refused, not stored (HTTP 415 2, HTTP 400 1).',
    ]);
    const quiet: string[] = [];
    const idle = new IntakeSummary((line) => quiet.push(line));
    idle.start(3_600_000);
    idle.stop();
    expect(quiet).toEqual([]);
  });
});
