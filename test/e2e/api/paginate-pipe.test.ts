/**
 * `b2bctl api --paginate` as a process: a reader that closes the pipe after a few lines ends the run at once,
 * with exit 0 and no error, and no further page is asked for.
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { generateListing } from '../../support/api-sandbox.js';
import { cleanEnv, cliPath, freshConfigDir } from '../../support/cli.js';
import { logInProcess, requestCounts, startTestSandbox } from '../../support/sandbox.js';
import { systemClock } from '../../../src/base/clock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

it('stops paging when the reader closes the pipe after 3 lines, exit 0', async () => {
  const sandbox = await startTestSandbox();
  try {
    const configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
    await generateListing(sandbox, 'cashbackHistory', 20_000);
    const { code, lines, stderr } = await new Promise<{ code: number | null; lines: string[]; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, [cliPath, 'api', '/v1/cashback/history', '--paginate'], {
          env: cleanEnv(configDir),
        });
        let out = '';
        let errors = '';
        child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          // The reader has what it wanted (head -3): it closes its end.
          if (out.split('\n').length > 3) child.stdout.destroy();
        });
        child.on('error', reject);
        child.on('close', (exitCode) =>
          resolve({ code: exitCode, lines: out.split('\n').slice(0, 3), stderr: errors }),
        );
      },
    );
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(
      sandbox.state.listings.items
        .get('cashbackHistory')
        ?.slice(0, 3)
        .map((item) => item.id),
    );
    // 20,130 items are 403 pages; the run stopped long before.
    expect((await requestCounts(sandbox))['GET /v1/cashback/history']).toBeLessThan(50);
  } finally {
    await sandbox.close();
  }
}, 60_000);
