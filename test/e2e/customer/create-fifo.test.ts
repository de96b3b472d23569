/**
 * A process substitution or a FIFO as FILE for `customer create` (issue 10, item 8: it said "sending 3
 * customers", sent nothing and exited 0, or hung): the pipe is read once and spooled, so every customer
 * the validation pass checked is sent. The input is the real Windows-1252 export of the customer sheet.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, collect, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { createRoute, storedCustomer, storedCustomers } from '../../support/customers.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';
import { requireTools } from '../../support/external-tools.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const fixture = join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-corrigido.win1252.csv');

function environment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_LOG_FORMAT: 'plain',
  };
}

async function expectSixCreated(): Promise<void> {
  expect(await requestCounts(sandbox)).toMatchObject({ [createRoute]: 6 });
  expect(await storedCustomers(sandbox)).toHaveLength(6);
  expect((await storedCustomer(sandbox, '00.360.305/0001-04')).name).toBe('Açúcar & Café São João Ltda');
}

const bash = requireTools('bash');

describe('customer create from a pipe', () => {
  it.skipIf(bash.missing)(
    `customer create <(cat clientes.csv): every customer sent, exit 0${bash.note}`,
    { timeout: 120_000 },
    async () => {
      const dir = freshWorkDir();
      copyFileSync(fixture, join(dir, 'clientes.csv'));
      const child = spawn(
        'bash',
        [
          '-c',
          `'${process.execPath}' '${cliPath}' customer create <(cat clientes.csv) --ignore-column 'Data de cadastro'`,
        ],
        {
          cwd: dir,
          env: environment(),
        },
      );
      const result = await collect(child);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('customer create: sending 6 customers');
      expect(result.stderr).toContain('customer create: 6 created;');
      await expectSixCreated();
      expect(readdirSync(dir).some((name) => /^\d+\.report-/.test(name))).toBe(true);
    },
  );

  it('a named FIFO written after b2bctl opens it: every customer sent, exit 0', { timeout: 120_000 }, async () => {
    const dir = freshWorkDir();
    copyFileSync(fixture, join(dir, 'source.csv'));
    expect(spawnSync('mkfifo', [join(dir, 'clientes.csv')]).status).toBe(0);
    const child = spawn(
      process.execPath,
      [cliPath, 'customer', 'create', 'clientes.csv', '--ignore-column', 'Data de cadastro'],
      {
        cwd: dir,
        env: environment(),
      },
    );
    const writer = spawn('sh', ['-c', 'cat source.csv > clientes.csv'], { cwd: dir });
    const written = new Promise((resolve) => writer.on('close', resolve));
    const result = await collect(child);
    await written;
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('b2bctl-stdin-');
    await expectSixCreated();
  });
});
