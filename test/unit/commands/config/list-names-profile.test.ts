import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runList, runSet } from '../../../../src/commands/config/index.js';
import { testContext } from '../../../support/test-context.js';

describe('config list on a terminal', () => {
  it('names the profile and the file it read, before the table', async () => {
    const setUp = testContext({ globals: { profile: 'lat' } });
    await runSet({ key: 'baseUrl', value: 'https://lat.example.com' }, setUp.context);
    const configDir = setUp.context.env.B2BCTL_CONFIG_DIR as string;
    const memory = testContext({
      env: { B2BCTL_CONFIG_DIR: configDir },
      globals: { profile: 'lat' },
      tty: { stdout: true },
    });
    await runList({}, memory.context);
    expect(memory.stderr()).toBe(`Profile "lat", read from ${join(configDir, 'config.json')}.\n`);
    expect(memory.stdout()).toMatch(/^KEY +VALUE +SOURCE\n/);
    expect(memory.stdout()).toContain('https://lat.example.com');
  });

  it('says when the file does not exist yet', async () => {
    const memory = testContext({ tty: { stdout: true } });
    await runList({}, memory.context);
    expect(memory.stderr()).toBe(
      `Profile "default", read from ${join(memory.context.env.B2BCTL_CONFIG_DIR as string, 'config.json')} (not created yet: every value is a default or from the environment).\n`,
    );
  });

  // A user test: piped into a ticket or a script, nothing said which profile or folder the values were from. The line
  // goes to stderr, so the JSON on stdout is what scripts read, as before.
  it('names the profile on stderr when the list is piped too, the JSON on stdout unchanged', async () => {
    const memory = testContext();
    await runList({}, memory.context);
    expect(memory.stderr()).toMatch(/^Profile "default", read from .*config\.json/);
    expect(JSON.parse(memory.stdout())).toBeInstanceOf(Array);
  });
});
