/**
 * `whoami`, the check docs/cron.md gives for a crontab line, reads the settings that name a place on this machine as
 * the jobs read them (a user test): an outputDir that does not exist and a tax.shape file that is not there passed
 * it, exit 0, and the nightly push then wrote no report and sent nothing. Each now stops it with the job's refusal.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/auth/whoami.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const given = { B2BCTL_BASE_URL: 'https://store.example.com', B2BCTL_TOKEN: 'token-of-the-test' };

it('B2BCTL_OUTPUT_DIR naming a folder that does not exist: exit 2, one line naming the variable', async () => {
  const missing = join(temporaryFolder('b2bctl-whoami-'), 'reports');
  const test = testContext({ env: { ...given, B2BCTL_OUTPUT_DIR: missing } });
  expect(await test.run(run, {})).toBe(2);
  expect(test.stdout()).toBe('');
  expect(test.stderr()).toBe(
    `error: ${missing}, the outputDir setting (from B2BCTL_OUTPUT_DIR), is no folder b2bctl can write in (ENOENT): stock push and customer create would write no report and send nothing; create it, or give a folder b2bctl can write in.\n`,
  );
});

it('B2BCTL_TAX_SHAPE naming a file that is not there: exit 66, one line naming the variable', async () => {
  const missing = join(temporaryFolder('b2bctl-whoami-'), 'shape.json');
  const test = testContext({ env: { ...given, B2BCTL_TAX_SHAPE: missing } });
  expect(await test.run(run, {})).toBe(66);
  expect(test.stderr()).toBe(
    `error: ${missing}: cannot read the shape file, named by the tax.shape setting (from B2BCTL_TAX_SHAPE) (ENOENT); tax serve would not start.\n`,
  );
});

it('an outputDir folder that exists: whoami shows the identity, exit 0', async () => {
  const folder = join(temporaryFolder('b2bctl-whoami-'), 'reports');
  mkdirSync(folder);
  const test = testContext({ env: { ...given, B2BCTL_OUTPUT_DIR: folder } });
  expect(await test.run(run, {})).toBe(0);
  expect(JSON.parse(test.stdout())).toMatchObject({ baseUrl: 'https://store.example.com', tokenSource: 'env' });
});
