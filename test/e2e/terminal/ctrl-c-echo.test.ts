/**
 * Ctrl-C typed at a terminal while a long-running command waits: the terminal echoes `^C` where the cursor stands,
 * at the start of the line after the last one printed, and the command's own last line then read
 * `^CSandbox stopped.`. The key goes through a real pseudo-terminal (`script`), whose line discipline echoes it and
 * raises SIGINT, as a person's terminal does; the screen is rendered.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';

describe.skipIf(pseudoTerminal.missing)(`Ctrl-C typed at a terminal${pseudoTerminal.note}`, () => {
  it('the sandbox says it stopped on a line of its own, with no ^C before it', async () => {
    const { code, screen } = await onTerminal(['sandbox', '--port', '0'], {
      env: { B2BCTL_CONFIG_DIR: freshConfigDir(), NO_COLOR: '1' },
      columns: 100,
      during: async (running) => {
        await running.printed('Press Ctrl-C');
        running.type('\u0003');
      },
    });
    expect(code).toBe(0);
    const lines = screen.lines.filter((line) => line.trim() !== '');
    expect(lines.at(-1)).toBe('Sandbox stopped.');
    expect(lines.filter((line) => line.includes('^C'))).toEqual([]);
  });
});
