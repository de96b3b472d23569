import { describe, expect, it } from 'vitest';
import { run } from '../../../../src/commands/customer/validate.js';
import { testContext } from '../../../support/test-context.js';

const oneCustomer = [
  'name,document,documentType,username,password,phone,customerRegistrationAddress.zipcode,customerRegistrationAddress.number',
  'Ana,529.982.247-25,cpf,ana@example.com,s3cret!,11987654321,01310-100,100',
  '',
].join('\n');

describe('customer validate - (stdin)', () => {
  it.each([true, false])('on a terminal (%s) says it is waiting and how to end, only then', async (stdinTTY) => {
    const memory = testContext({ tty: { stdin: stdinTTY }, stdin: oneCustomer });
    const finished = run({ file: '-', mode: 'create', strict: false }, memory.context);
    await finished;
    const waiting =
      'Reading records from stdin (this terminal): paste or type them, then press Ctrl-D on an empty line to end (Ctrl-C to cancel).';
    const waitingLines = memory
      .stderr()
      .split('\n')
      .filter((line) => line === waiting);
    expect(waitingLines).toHaveLength(stdinTTY ? 1 : 0);
    expect(memory.stderr().startsWith(waiting)).toBe(stdinTTY);
    expect(memory.stderr()).toMatch(/stdin: 1 record, 1 valid, 0 invalid \(0 problems\)/);
  });
});
