/**
 * The settings that name a place on this machine, read as the jobs read them (a user test): an outputDir that does
 * not exist and a tax.shape file that is not there passed doctor's settings check, and the nightly push then wrote
 * no report and sent nothing (exit 2). Each is now a check of its own, failed with the setting named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { systemClock } from '../../../src/base/clock.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();

interface Finding {
  check: string;
  result: string;
  detail: string;
  setting?: string;
}

function doctorWith(env: Record<string, string>) {
  platform.routes['GET *'] = (request, _body, response) => answerJson(response, 200, request.url === '/' ? {} : []);
  return testContext({
    clock: systemClock,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'token-of-the-test', ...env },
  });
}

it('B2BCTL_OUTPUT_DIR naming a folder that does not exist: the output folder check fails naming it, exit 2', async () => {
  const missing = join(temporaryFolder('b2bctl-doctor-'), 'reports');
  const test = doctorWith({ B2BCTL_OUTPUT_DIR: missing });
  expect(await test.run(run, {})).toBe(2);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'output folder')).toEqual({
    check: 'output folder',
    result: 'fail',
    detail: `${missing}, the outputDir setting (from B2BCTL_OUTPUT_DIR), is no folder b2bctl can write in (ENOENT): stock push and customer create would write no report and send nothing; create it, or give a folder b2bctl can write in`,
    setting: 'outputDir',
  });
  expect(test.stderr()).toContain(`output folder: ${missing}, the outputDir setting`);
});

it('B2BCTL_OUTPUT_DIR naming a file, not a folder: the check fails', async () => {
  const file = join(temporaryFolder('b2bctl-doctor-'), 'reports');
  writeFileSync(file, '');
  const test = doctorWith({ B2BCTL_OUTPUT_DIR: file });
  expect(await test.run(run, {})).toBe(2);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'output folder')?.detail).toContain('(it is not a folder)');
});

it('an outputDir folder that exists: the check is ok', async () => {
  const folder = join(temporaryFolder('b2bctl-doctor-'), 'reports');
  mkdirSync(folder);
  const test = doctorWith({ B2BCTL_OUTPUT_DIR: folder });
  expect(await test.run(run, {})).toBe(0);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'output folder')).toMatchObject({ result: 'ok' });
});

it('B2BCTL_TAX_SHAPE naming a file that is not there: the tax shape check fails, exit 66', async () => {
  const missing = join(temporaryFolder('b2bctl-doctor-'), 'shape.json');
  const test = doctorWith({ B2BCTL_TAX_SHAPE: missing });
  expect(await test.run(run, {})).toBe(66);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'tax shape')).toEqual({
    check: 'tax shape',
    result: 'fail',
    detail: `${missing}: cannot read the shape file, named by the tax.shape setting (from B2BCTL_TAX_SHAPE) (ENOENT); tax serve would not start`,
    setting: 'tax.shape',
  });
});

it('B2BCTL_TAX_SHAPE naming a file that is not JSON: the tax shape check fails, exit 2', async () => {
  const file = join(temporaryFolder('b2bctl-doctor-'), 'shape.json');
  writeFileSync(file, '{cut');
  const test = doctorWith({ B2BCTL_TAX_SHAPE: file });
  expect(await test.run(run, {})).toBe(2);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'tax shape')?.detail).toContain(
    'The tax shape from the tax.shape setting (from B2BCTL_TAX_SHAPE) is not usable: ',
  );
});

it('neither setting given: no line for either', async () => {
  const test = doctorWith({});
  expect(await test.run(run, {})).toBe(0);
  const checks = (JSON.parse(test.stdout()) as Finding[]).map((finding) => finding.check);
  expect(checks).not.toContain('output folder');
  expect(checks).not.toContain('tax shape');
});
