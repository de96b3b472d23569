/**
 * A resumed run's errors file goes beside the report it resumes, as `--errors` says ("default: beside the report"):
 * a cron run that kept its files in the outputDir folder (the export share read-only) printed a resume command
 * that, pasted in a shell without B2BCTL_OUTPUT_DIR, put its errors file beside the input and was refused (EROFS).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDefaults, type SandboxOptions } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import { copySamples } from '../../support/cli.js';
import { fetchToken, seedDirectory } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const options: SandboxOptions = { ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory };
let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox(options);
  env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) };
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

describe('a run whose files went to the outputDir folder, resumed without the setting', () => {
  it('writes the resumed run’s errors file beside the report, not beside the input', async () => {
    const exportFolder = temporaryFolder('b2bctl-export-');
    const reports = temporaryFolder('b2bctl-reports-');
    const configDir = join(temporaryFolder('b2bctl-config-'), 'config');
    copySamples(exportFolder, 'stock.csv');

    // The store answers 503 to everything: the night stops with the resume command.
    options.failRate = 1;
    const night = await runCommandLine(['stock', 'push', join(exportFolder, 'stock.csv'), '--route', 'batch'], {
      configDir,
      env: { ...env, B2BCTL_OUTPUT_DIR: reports },
    });
    expect(night.code).toBe(69);
    const resumeLine = /when it is back, run: B2BCTL_CONFIG_DIR=\S+ b2bctl (.*)$/m.exec(night.stderr)?.[1];
    expect(resumeLine).toMatch(/--resume \S+\/stock\.report-\d{8}-\d{6}\.csv$/);

    // Pasted in the morning, in a shell without B2BCTL_OUTPUT_DIR; the store is still down, so records fail again.
    const morning = await runCommandLine((resumeLine as string).split(' '), { configDir, env });
    expect(morning.code).toBe(69);
    expect(readdirSync(exportFolder)).toEqual(['stock.csv']);
    const errorsFiles = readdirSync(reports).filter((name) => name.startsWith('stock.errors-'));
    expect(errorsFiles).toHaveLength(2);
    expect(morning.stderr).toMatch(/^stock push: errors: \S+\/stock\.errors-\d{8}-\d{6}(-2)?\.csv \(/m);
    expect(/^stock push: errors: (\S+) /m.exec(morning.stderr)?.[1]?.startsWith(`${reports}/`)).toBe(true);
  });
});
