import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, collect, firstLine, freshConfigDir } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { clientId, clientSecret } from '../../support/webhook-receiver.js';

afterAll(removeTemporaryFolders);

// Node 22 announces node:sqlite as experimental on stderr when the inbox opens; the launcher drops that notice and
// no other warning. A preloaded module emits, on SIGUSR2, the same notice and a warning of its own, so the filter is
// checked on every Node line (24 and later print no notice of their own), after the receiver has opened its store.
const preload = `process.on('SIGUSR2', () => {
  process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
  process.emitWarning('a warning of its own', 'ExperimentalWarning');
});`;

describe('the launcher and Node warnings', () => {
  it("keeps node:sqlite's experimental notice off the receiver's stderr, and prints every other warning", async () => {
    const folder = temporaryFolder();
    const preloadFile = join(folder, 'emit-warnings.mjs');
    writeFileSync(preloadFile, preload);
    const args = ['webhook', 'listen', '--port', '0', '--client-id', clientId, '--inbox', join(folder, 'inbox')];
    const child = spawn(process.execPath, ['--import', preloadFile, cliPath, ...args], {
      env: cleanEnv(freshConfigDir(), { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = collect(child);
    // The URL line: the store is open, so Node 22's own notice has already come and gone.
    expect(await firstLine(child.stdout!)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    let stderr = '';
    const warned = new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('a warning of its own')) resolve();
      }),
    );
    child.kill('SIGUSR2');
    await warned;
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/ExperimentalWarning: a warning of its own/);
    expect(result.stderr).not.toMatch(/SQLite is an experimental/);
  });
});
