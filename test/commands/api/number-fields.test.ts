/**
 * `-F` with a number a JSON reader would not get back digit for digit (an NF-e key's 44 digits) sends it as text and
 * says so on stderr; the numbers a double holds are still sent as numbers. The body is read from --verbose's trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir } from '../../support/cli.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { stopTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  ({ sandbox, configDir } = await startLoggedInSandbox());
});
afterAll(() => stopTestSandbox(sandbox));

describe('api -F with long numbers', () => {
  it('sends an NF-e key as text, with a note naming the field, and a price as a number', async () => {
    const key = '35240611222333000181550010000012341000012345';
    const result = await runCommandLine(
      ['api', '--verbose', '-X', 'POST', '/v1/contracts', '-F', `invoiceKey=${key}`, '-F', 'price=1.50'],
      { configDir, cwd: freshWorkDir() },
    );
    const lines = result.stderr.split('\n');
    expect(lines).toContainEqual(
      expect.stringContaining(
        `-F invoiceKey: ${key} has more digits than a JSON number holds exactly; it is sent as text (-f says so without this note).`,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`> \\{"invoiceKey":"${key}","price":1\\.5\\}$`)));
  });
});
