/**
 * `customer status TARGET [STATE]` run whole, in process: what the verb makes of its two words, as a user sees it.
 * A refusal ends with exit 2 and its one line before any request; a document and a state word send one change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

function run(args: string[], folder = freshWorkDir()) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['customer', 'status', ...args], { configDir: freshConfigDir(), env, cwd: folder });
}

describe('customer status: the words it refuses, before any request', () => {
  it.each([
    [['529.982.247-25'], 'error: customer status 529.982.247-25: the state is missing; type b2bctl customer status'],
    [['12.ABC.345/01DE-35'], 'error: customer status 12.ABC.345/01DE-35: the state is missing;'],
    [['529.982.247-25', 'maybe'], 'error: The state must be active or inactive, ativo or inativo,'],
    [['clientes.csv', 'inactive'], "error: customer status clientes.csv inactive: a file gives each customer's state"],
    [
      ['529.982.247-25', 'inactive', '--report', 'r.csv', '--min-records', '5'],
      'error: --report, --min-records apply to a FILE of customers; one customer on the command line is one request, with no file to read, pace or report. Remove them, or give a file: b2bctl customer status states.csv.',
    ],
    [['529.982.247-25', 'inactive', '--skip-invalid'], 'error: --skip-invalid applies to a FILE of customers;'],
    [['529.982.247-25', 'inactive', '--concurrency', '4'], 'error: --concurrency applies to a FILE of customers;'],
  ])('%j: exit 2, %s', async (args, line) => {
    const result = await run(args);
    expect({ code: result.code, sent: platform.received }).toEqual({ code: 2, sent: [] });
    expect(result.stderr).toContain(line);
  });
});

describe('customer status: the words it takes', () => {
  it.each([
    ['Bloqueado', 'false'],
    ['LIBERADO', 'true'],
  ])('DOC %s sends active=%s for that customer', async (state, active) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = (_request, _body, response) => answerJson(response, 200, {});
    const result = await run(['529.982.247-25', state]);
    expect({ code: result.code, sent: platform.received }).toEqual({
      code: 0,
      sent: [`PUT /v1/customer/updateStatus/529.982.247-25/${active}`],
    });
  });

  it('a FILE without a state is a bulk run, its flags honoured', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = (_request, _body, response) => answerJson(response, 200, {});
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'states.csv'), 'document,active\n529.982.247-25,inativo\n');
    const result = await run(['states.csv', '--concurrency', '1'], folder);
    expect({ code: result.code, sent: platform.received }).toEqual({
      code: 0,
      sent: ['PUT /v1/customer/updateStatus/529.982.247-25/false'],
    });
  });
});
