/**
 * A customer run none of whose requests was answered within --timeout: its closing line says what the resume does
 * with the records left `unknown`. A create's resume asks the platform first (the customer may have been made); an
 * update's sends the same request again, which is harmless. Both lines said "asked about again by the resume".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const ana = '529.982.247-25';

/** `b2bctl ARGS --timeout 200ms --retries 0` in a fresh folder holding FILE, against the scripted platform. */
async function unanswered(args: readonly string[], file: { name: string; text: string }) {
  const folder = freshWorkDir();
  writeFileSync(join(folder, file.name), file.text);
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine([...args, '--timeout', '200ms', '--retries', '0'], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
    clock: new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0)),
  });
  const base = file.name.replace(/\.csv$/, '');
  return { result, rows: readReport(join(folder, onlyReport(folder, base))) };
}

describe('a customer run whose every request went unanswered', () => {
  it('customer create: the unknown customer is asked about again by the resume', async () => {
    // Never answered: the create and its "does it exist now?" both meet the time-out.
    platform.routes['POST /v1/customer'] = () => undefined;
    platform.routes['PUT /v1/customer/*'] = () => undefined;
    const { result, rows } = await unanswered(['customer', 'create', 'people.csv', '--no-input'], {
      name: 'people.csv',
      text: `${header}\n${first}\n`,
    });
    expect(result.code).toBe(69);
    expect(rows.map((row) => row.outcome)).toEqual(['unknown']);
    expect(platform.received[0]).toBe('POST /v1/customer');
    expect(platform.received.filter((request) => request === 'POST /v1/customer')).toHaveLength(1);
    // The question met the time-out too: the line says so and resumes with a longer one, never "when it is back".
    expect(result.stderr).toMatch(
      /No request of this run was answered within 0\.2 s \(1 unknown, asked about again by the resume\); run again with a longer --timeout: .*b2bctl customer create people\.csv .*--timeout 30s --resume /,
    );
    expect(result.stderr).not.toContain('when it is back');
    expect(result.stderr).not.toContain('sent again by the resume');
  });

  it('customer update: the unknown change is sent again by the resume, never "asked about"', async () => {
    platform.routes['PUT /v1/customer/*'] = () => undefined;
    const { result, rows } = await unanswered(['customer', 'update', 'changes.csv'], {
      name: 'changes.csv',
      text: `document,name\n${ana},Jo\n`,
    });
    expect(result.code).toBe(69);
    expect(rows.map((row) => row.outcome)).toEqual(['unknown']);
    expect(platform.received).toEqual([`PUT /v1/customer/${ana}`]);
    expect(result.stderr).toMatch(
      /No request of this run was answered within 0\.2 s \(1 unknown, sent again by the resume\); run again with a longer --timeout: /,
    );
    expect(result.stderr).not.toContain('asked about');
  });
});
