import { describe, expect, it } from 'vitest';
import { clockFinding } from '../../../../src/commands/doctor/network-checks.js';

describe('clockFinding: the skew between the platform and this machine', () => {
  it.each([
    [0, 'ok', 'platform clock in step with this machine'],
    [1_400, 'ok', 'platform clock in step with this machine'],
    [-30_000, 'ok', 'platform clock 30 s behind this machine'],
    [90_000, 'warn', 'platform clock 90 s ahead of this machine: '],
    [-600_000, 'fail', 'platform clock 600 s behind this machine: '],
  ])('%i ms → %s', (skewMs, result, detail) => {
    const finding = clockFinding(skewMs);
    expect(finding.result).toBe(result);
    expect(finding.detail.startsWith(detail)).toBe(true);
  });
});
