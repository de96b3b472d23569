/**
 * `b2bctl api --input <(...)` as bash runs it: the body comes through a pipe named /dev/fd/63, which b2bctl reads
 * as a pipe (a FIFO no program writes to is refused instead: test/commands/api/bad-input.test.ts). Only a process
 * shows it: the shell makes the pipe and its writer.
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { cleanEnv, cliPath, freshConfigDir } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { logInProcess, sandboxJson, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const bash = requireTools('bash');

afterAll(removeTemporaryFolders);

/** `b2bctl api ARGS --input <(printf BODY)` in bash: its exit status and stderr. */
function apiWithSubstitutedInput(args: string, body: string, configDir: string) {
  const command = `"$NODE" "$CLI" api ${args} --input <(printf '%s' "$BODY")`;
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      env: { ...cleanEnv(configDir), NODE: process.execPath, CLI: cliPath, BODY: body },
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: errors }));
  });
}

it.skipIf(bash.missing)(
  `--input <(printf ...): the body is read from the pipe and sent${bash.note}`,
  async () => {
    const sandbox = await startTestSandbox();
    try {
      const configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
      // The sandbox's own settings route: what it keeps shows the body arrived whole.
      const before = await sandboxJson<{ latLngFeature: boolean }>(sandbox, '/_sandbox/settings');
      expect(before.latLngFeature).toBe(false);
      const result = await apiWithSubstitutedInput('-X PUT /_sandbox/settings', '{"latLngFeature":true}', configDir);
      expect(result).toEqual({ code: 0, stderr: '' });
      const after = await sandboxJson<{ latLngFeature: boolean }>(sandbox, '/_sandbox/settings');
      expect(after.latLngFeature).toBe(true);
    } finally {
      await sandbox.close();
    }
  },
  60_000,
);
