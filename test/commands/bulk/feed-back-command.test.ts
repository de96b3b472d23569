/**
 * The printed "once fixed, feed it back with" command sends the errors file where and how the run sent its records:
 * the same config folder, profile, base URL and shaping flags as the resume command. Pasted without them, the
 * records went to the default profile's store, by another route, with exit 0.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { login, runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { shellWords } from '../../support/command-words.js';
import {
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  startTestSandbox,
  stopTestSandbox,
  repoRoot,
} from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

/** The store the default profile is logged in to, which the job does not send to. */
let otherStore: RunningSandbox;
/** The job's store, logged in to as profile p7 in the same config folder. */
let jobStore: RunningSandbox;
let configDir: string;
beforeAll(async () => {
  ({ sandbox: otherStore, configDir } = await startLoggedInSandbox());
  jobStore = await startTestSandbox();
  await login(jobStore, configDir, ['--profile', 'p7']);
});
afterAll(async () => {
  await otherStore.close();
  await stopTestSandbox(jobStore);
  removeTemporaryFolders();
});

/** The printed line run as a shell would: its `B2BCTL_CONFIG_DIR=…` prefix becomes the run's config folder. */
function runAsPrinted(line: string, cwd: string, env?: Record<string, string>) {
  const folder = /^B2BCTL_CONFIG_DIR=(\S+) b2bctl /.exec(line)?.[1];
  expect(folder).toBe(configDir);
  return runCommandLine(shellWords(line).slice(1), { configDir: folder as string, cwd, env });
}

describe('the feed-back command of a bulk run', () => {
  it('sends the fixed errors file to the run’s profile and store, by its route, read with its map', async () => {
    const folder = temporaryFolder('b2bctl-feed-back-');
    // A Windows-1252 ERP export that needs --map and --encoding; its second item is invalid (a negative quantity).
    const rows = ['Código;Qtde', 'GEN-0000001;5', 'GEN-0000002;-5', 'GEN-0000003;7', ''];
    writeFileSync(join(folder, 'estoque.csv'), iconv.encode(rows.join('\r\n'), 'win1252'));
    writeFileSync(join(folder, 'map.json'), JSON.stringify({ Código: 'sku', Qtde: 'quantity' }));
    await resetCounts(jobStore);
    const run = await runCommandLine(
      [
        'stock',
        'push',
        'estoque.csv',
        '--profile',
        'p7',
        '--map',
        'map.json',
        '--encoding',
        'windows-1252',
        '--route',
        'batch',
        '--skip-invalid',
        '--rate',
        '40',
      ],
      { configDir, cwd: folder },
    );
    expect(run.code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('estoque.errors-')) as string;
    // Neither --encoding (the errors file is UTF-8) nor --skip-invalid (a record still invalid once fixed is a fix
    // missed, said before anything is sent).
    const line = `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push ${errorsFile} --profile p7 --map ${join(folder, 'map.json')} --rate 40 --route batch`;
    expect(run.stderr).toContain(`stock push: once fixed, feed it back with: ${line}\n`);

    // Fixed, and pasted as printed.
    const errorsPath = join(folder, errorsFile);
    writeFileSync(errorsPath, readFileSync(errorsPath, 'utf8').replace('GEN-0000002;-5', 'GEN-0000002;5'));
    await resetCounts(jobStore);
    await resetCounts(otherStore);
    const fedBack = await runAsPrinted(line, folder);
    expect(fedBack.code).toBe(0);
    expect(fedBack.closingLine).toBe(`stock push: ${errorsFile} to profile "p7" (${jobStore.url}): 1 applied; exit 0`);
    expect(await requestCounts(jobStore)).toEqual({ 'PUT /v1/stock/batch': 1 });
    expect(await requestCounts(otherStore)).toEqual({});
  });

  it('names a --base-url given as a flag, so the default profile’s store is not where it goes', async () => {
    const folder = temporaryFolder('b2bctl-feed-back-url-');
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity\nGEN-0000001,5\nGEN-0000002,x\n');
    await resetCounts(jobStore);
    // The store named by the flag alone: b2bctl logs in to it with the user's credentials.
    const credentials = { B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: sandboxPassword };
    const run = await runCommandLine(['stock', 'push', 'stock.csv', '--base-url', jobStore.url, '--skip-invalid'], {
      configDir,
      cwd: folder,
      env: credentials,
    });
    expect(run.code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('stock.errors-')) as string;
    const line = `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push ${errorsFile} --profile default --base-url ${jobStore.url} --route batch`;
    expect(run.stderr).toContain(`stock push: once fixed, feed it back with: ${line}\n`);

    const errorsPath = join(folder, errorsFile);
    writeFileSync(errorsPath, readFileSync(errorsPath, 'utf8').replace('GEN-0000002,x', 'GEN-0000002,2'));
    await resetCounts(jobStore);
    await resetCounts(otherStore);
    const fedBack = await runAsPrinted(line, folder, credentials);
    expect(fedBack.code).toBe(0);
    expect(await requestCounts(jobStore)).toMatchObject({ 'PUT /v1/stock/batch': 1 });
    expect(await requestCounts(otherStore)).toEqual({});
  });

  it('reads a workbook’s errors file as written, `,` with decimal points, whatever --delimiter and --decimal the workbook was read with', async () => {
    const folder = temporaryFolder('b2bctl-feed-back-workbook-');
    // Typed as a pt-BR sheet: a price of 0 (invalid without --allow-zero-price), an empty one and 12,50.
    const workbook = join(repoRoot, 'test', 'fixtures', 'libreoffice', 'estoque-preco-zero.xlsx');
    copyFileSync(workbook, join(folder, 'precos.xlsx'));
    const run = await runCommandLine(
      ['stock', 'push', 'precos.xlsx', '--profile', 'p7', '--decimal', ',', '--delimiter', ';', '--skip-invalid'],
      { configDir, cwd: folder },
    );
    expect(run.code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('precos.errors-')) as string;
    const line = `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push ${errorsFile} --profile p7 --delimiter , --decimal . --route batch`;
    expect(run.stderr).toContain(`stock push: once fixed, feed it back with: ${line}\n`);

    // The price fixed as the file writes its numbers, and the line pasted as printed.
    const errorsPath = join(folder, errorsFile);
    const written = readFileSync(errorsPath, 'utf8');
    expect(written).toContain('GEN-0000001,5,0,2,');
    writeFileSync(errorsPath, written.replace('GEN-0000001,5,0,2,', 'GEN-0000001,5,10.5,2,'));
    await resetCounts(jobStore);
    const fedBack = await runAsPrinted(line, folder);
    expect(fedBack.code).toBe(0);
    expect(fedBack.closingLine).toBe(`stock push: ${errorsFile} to profile "p7" (${jobStore.url}): 1 applied; exit 0`);
    expect(await requestCounts(jobStore)).toEqual({ 'PUT /v1/stock/batch': 1 });
  });
});
