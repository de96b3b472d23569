/**
 * `b2bctl api -o table` on a terminal narrower than the answer's fields: the table keeps its first columns and
 * says which it left out, so no row is wrapped by the terminal. Read on the rendered screen.
 */
import { describe, expect, it } from 'vitest';
import { useSandboxPerFile } from '../../support/cli.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';

let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ configDir } = ready));

describe.skipIf(pseudoTerminal.missing)(`api -o table on a narrow terminal${pseudoTerminal.note}`, () => {
  it('keeps the first columns whole on the screen and names the ones left out', async () => {
    const { code, screen } = await onTerminal(['api', '/v1/orders?limit=3', '-o', 'table'], {
      env: { B2BCTL_CONFIG_DIR: configDir, NO_COLOR: '1' },
      columns: 100,
    });
    expect(code).toBe(0);
    expect(screen.wrapped).toEqual([]);
    expect(screen.lines[0]).toMatch(/^ID +ORDER_ID +STATUS +/);
    expect(screen.lines.filter((line) => /^\d+ +1\d{5} +[A-Z_]+ /.test(line))).toHaveLength(3);
    expect(screen.lines.slice(4).join(' ')).toMatch(
      /^[A-Z_, ]+ and [A-Z_]+ hidden to fit 100 columns: widen the terminal, or -o json for every field\.$/,
    );
  });
});
