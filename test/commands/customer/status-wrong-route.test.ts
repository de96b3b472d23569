/**
 * A `customer status FILE` run on a status route the store does not have (a user test: `paths.customerStatus` set
 * with another prefix): every row is answered 404, as a missing customer is. The rows and the closing `why` line
 * now name the route and its setting, as the one-customer form does, instead of only "no customer has the document".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport } from '../../support/run-files.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

describe('customer status FILE on a status route the store does not have', () => {
  it('every row fails naming the route and paths.customerStatus, and the why line says it once', async () => {
    const configDir = freshConfigDir();
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'st9.csv'), 'document;active\n052.331.787-53;inativo\n01.152.449/0001-38;inativo\n');
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });
    expect((await run(['config', 'set', 'paths.customerStatus', '/v2/customer/status/:document/:active'])).code).toBe(
      0,
    );
    const result = await run(['customer', 'status', 'st9.csv', '--concurrency', '1']);
    expect(result.code).toBe(1);
    const rows = readReport(join(dir, onlyReport(dir, 'st9')));
    expect(rows.map((row) => [row.outcome, row.status])).toEqual([
      ['failed', '404'],
      ['failed', '404'],
    ]);
    expect(rows[0]?.message).toMatch(
      /^no customer has the document 052\.331\.787-53 in this store, or this store's route is not PUT \S+\/v2\/customer\/status\/052\.331\.787-53\/false: if the customer is registered, set paths\.customerStatus \(HTTP 404/,
    );
    const why = result.stderr.split('\n').filter((line) => line.includes('why, '));
    expect(why).toHaveLength(1);
    expect(why[0]).toContain('why, 2 customers (first at line 2): no customer has the document 052.331.787-53');
    expect(why[0]).toContain('set paths.customerStatus');
  });
});
