/**
 * doctor's token line names the profile in the login it asks for: `run b2bctl login` alone logs in the default
 * profile, not the one doctor checked (a fresh user test; whoami already said `--profile`).
 */
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, useSandboxPerFile } from '../../support/cli.js';
import { FakeClock } from '../../support/fake-clock.js';
import { login, runCommandLine } from '../../support/command-line.js';

let sandbox: RunningSandbox;
useSandboxPerFile({ login: false }, (ready) => ({ sandbox } = ready));

it('an expired token of profile ttl: run b2bctl login --profile ttl', async () => {
  const configDir = freshConfigDir();
  await login(sandbox, configDir, ['--profile', 'ttl']);
  // Doctor run a day later: the 12-hour token has expired.
  const dayLater = new FakeClock(Date.now() + 24 * 3_600_000);
  const result = await runCommandLine(['doctor', '--profile', 'ttl', '-o', 'json'], { configDir, clock: dayLater });
  const token = (JSON.parse(result.stdout) as { check: string; detail: string }[]).find(
    (finding) => finding.check === 'token (cached)',
  );
  expect(token?.detail).toMatch(
    new RegExp(`^expired at \\S+: run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile ttl$`),
  );
});
