/**
 * The first `b2bctl login` on a terminal, the base URL typed as a newcomer copies it from a browser's address bar
 * (no scheme): saved as typed, it stopped that login and every later one before they asked anything. The prompt
 * now asks again with the scheme offered, Enter takes it, and the password's question names whose it is; this is
 * what the operator sees and answers, on a real pseudo-terminal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir } from '../../support/cli.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import { sandboxPassword, sandboxUser, useFileSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));

describe.skipIf(pseudoTerminal.missing)(`the base URL asked for at login on a terminal${pseudoTerminal.note}`, () => {
  it('a host typed without its scheme is asked for again with http:// offered; Enter takes it and logs in', async () => {
    const configDir = freshConfigDir();
    const typed = sandbox.url.replace(/^http:\/\//, '');
    const { code, screen } = await onTerminal(['login'], {
      env: { B2BCTL_CONFIG_DIR: configDir, NO_COLOR: '1' },
      columns: 200,
      during: async ({ printed, type }) => {
        await printed('Base URL of the platform API');
        type(`${typed}\r`);
        await printed(`Base URL of the platform API (${sandbox.url})`);
        type('\r');
        await printed('Integration user (e-mail)');
        type(`${sandboxUser}\r`);
        await printed('(not shown as you type)');
        type(`${sandboxPassword}\r`);
      },
    });
    expect(code).toBe(0);
    expect(screen.lines).toContain(
      `The base URL "${typed}" (from the prompt) must be an absolute URL such as https://store.example.com; it was not saved. Enter takes ${sandbox.url}, or type another.`,
    );
    expect(screen.lines).toContain(`✔ Base URL of the platform API ${sandbox.url}`);
    expect(screen.lines).toContain(`✔ Password of ${sandboxUser} at ${sandbox.url} (profile "default")`);
    expect(screen.lines.some((line) => line.startsWith(`Logged in to ${sandbox.url} as ${sandboxUser}`))).toBe(true);
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      profiles: { default: { baseUrl: string } };
    };
    expect(saved.profiles.default.baseUrl).toBe(sandbox.url);
  });
});
