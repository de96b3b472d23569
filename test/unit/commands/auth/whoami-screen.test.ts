/**
 * `b2bctl whoami` on a terminal, checked on the rendered screen at 20, 40 and 80 columns: a value too long for the
 * line goes on under its own column, never wrapped back to the edge by the terminal (a user test), and nothing is cut;
 * piped, each value stays whole on its line.
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { freshConfigDir, readConfig } from '../../../support/cli.js';
import { login, runCommandLine } from '../../../support/command-line.js';
import { renderedScreen, wrappedLineCount } from '../../../support/rendered-screen.js';
import { sandboxUser, useFileSandbox } from '../../../support/sandbox.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));

/** Runs whoami -o table with stdout on a terminal `columns` wide (or a pipe when undefined); returns what it wrote. */
async function whoamiOutput(configDir: string, columns: number | undefined): Promise<string> {
  const tty = { stdout: columns !== undefined, stderr: false };
  const result = await runCommandLine(['whoami', '-o', 'table'], { configDir, tty, columns });
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('whoami on a terminal', () => {
  it('at 80, 40 and 20 columns: no line wraps, each value under its own column, nothing cut', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const expiresAt = readConfig(configDir).profiles.default?.tokenExpiresAt ?? '';

    const wide = await whoamiOutput(configDir, 80);
    expect(await wrappedLineCount(wide, 80)).toBe(0);
    expect(await renderedScreen(wide, 80)).toEqual([
      'Profile:  default',
      `Base URL: ${sandbox.url}`,
      `User:     ${sandboxUser}`,
      `Token:    valid until ${expiresAt}`,
    ]);

    // A user test: `Token:    valid until 2026-12-01T08:14:1` / `2.452Z`, the instant's end at the edge.
    const forty = await whoamiOutput(configDir, 40);
    expect(await wrappedLineCount(forty, 40)).toBe(0);
    expect((await renderedScreen(forty, 40)).slice(3)).toEqual(['Token:    valid until', `          ${expiresAt}`]);

    // Too narrow to leave the values room beside their labels: each label on its line, its value indented below.
    const twenty = await whoamiOutput(configDir, 20);
    expect(await wrappedLineCount(twenty, 20)).toBe(0);
    const screen = await renderedScreen(twenty, 20);
    expect(screen.slice(0, 2)).toEqual(['Profile:', '  default']);
    expect(screen.filter((line) => !line.startsWith('  '))).toEqual(['Profile:', 'Base URL:', 'User:', 'Token:']);
    const tokenLines = screen.slice(screen.indexOf('Token:') + 1).map((line) => line.trim());
    expect(tokenLines[0]).toBe('valid until');
    // The instant is longer than the 18 columns left: broken across lines, every character of it kept.
    expect(tokenLines.slice(1).join('')).toBe(expiresAt);
    expect(screen.join('\n')).not.toContain('…');
  });

  it('piped, each value stays whole on its line, whatever its length', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const expiresAt = readConfig(configDir).profiles.default?.tokenExpiresAt ?? '';
    expect(await whoamiOutput(configDir, undefined)).toBe(
      `Profile:  default\nBase URL: ${sandbox.url}\nUser:     ${sandboxUser}\nToken:    valid until ${expiresAt}\n`,
    );
  });
});
